//! The NNUE network as Rust source: `build.rs` reads the committed `.qnn`
//! file (written by `quince-train`) and emits its weights as a `static`, so
//! the engine carries its network in the binary with nothing to load or
//! parse at run time.
//!
//! `.qnn` layout (little endian): `QNN3`, `u32` hidden size H, `u32`
//! output buckets B, `u32` flags (bit 0: the inputs are mirrored, see
//! below), `u8` king bucket `[64]` (by the square of the perspective's own
//! king, seen from its side), `i16` feature weights `[768 K][H]` (K = the
//! largest king bucket + 1), `i16` feature biases `[H]`, `i16` output
//! weights `[B][2H]` (each bucket's side to move's half first), `i32`
//! output biases `[B]`. `QNN2` is the format before king buckets (one
//! king bucket, not mirrored: no flags or table); `QNN1` the format
//! before output buckets (no B either). `QNN4` is `QNN3` with a hidden
//! layer: `u32` L1 after the table, and the layer (`hidden_layer.rs`) in
//! place of the output weights and biases.
//!
//! King buckets give each region of the board's own king its own set of
//! 768 feature weights, so that "a knight on f3" can mean one thing with
//! the king castled short and another with it in the centre. Mirrored
//! inputs flip the board left to right, for that perspective, whenever its
//! king stands on files e-h: the network then only ever sees its king on
//! files a-d, and a mirrored table must give a square and its mirror image
//! the same bucket.

use crate::hidden_layer::{self, HiddenLayer};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The inputs of one king bucket: 2 colours (own, opponent) x 6 pieces x
/// 64 squares.
pub const INPUTS: usize = 768;
/// The most king buckets a file may have (a feature index must fit the
/// trainer's `u16`).
pub const MAX_KING_BUCKETS: usize = 32;

/// The widest accumulator the engine takes: its output layer sums any
/// width exactly (in runs of 256 terms); this bound only keeps a file's
/// size and the engine's update cost sane.
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a file may have (more bands of material than
/// this would leave each with too few positions to learn from).
pub const MAX_BUCKETS: usize = 16;

/// The bounds this module checks a `.qnn` file against, emitted beside the
/// network so that the trainer (which depends on the engine crate, not on
/// codegen) refuses a shape the build would refuse, before hours of
/// training rather than after.
fn limits() -> TokenStream {
    let hidden = Literal::usize_unsuffixed(MAX_HIDDEN);
    let buckets = Literal::usize_unsuffixed(MAX_BUCKETS);
    let king_buckets = Literal::usize_unsuffixed(MAX_KING_BUCKETS);
    let units = Literal::usize_unsuffixed(hidden_layer::MAX_UNITS);
    quote! {
        /// The widest accumulator a `.qnn` file may hold (the build
        /// refuses wider).
        pub const MAX_HIDDEN: usize = #hidden;
        /// The most output buckets a `.qnn` file may hold.
        pub const MAX_BUCKETS: usize = #buckets;
        /// The most king buckets a `.qnn` file may hold.
        pub const MAX_KING_BUCKETS: usize = #king_buckets;
        /// The most units of the hidden layer between the accumulators
        /// and the output a `.qnn` file may hold.
        pub const MAX_L1: usize = #units;
    }
}

/// A parsed `.qnn` file.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantisedNetwork {
    pub hidden: usize,
    pub buckets: usize,
    /// The king bucket of each square of the perspective's own king (seen
    /// from its side): all 0 without king buckets.
    pub king_buckets: [u8; 64],
    /// Whether a perspective whose king is on files e-h sees the board
    /// mirrored left to right.
    pub mirrored: bool,
    /// `[768 K][H]`.
    pub feature_weights: Vec<i16>,
    pub feature_biases: Vec<i16>,
    /// `[bucket][2H]` (empty with a hidden layer).
    pub output_weights: Vec<i16>,
    pub output_biases: Vec<i32>,
    /// The layer between the accumulators and the output, if any.
    pub hidden_layer: Option<HiddenLayer>,
}

/// Parses a `.qnn` file, naming what is wrong if it is not one.
pub fn parse(bytes: &[u8]) -> Result<QuantisedNetwork, String> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
    };
    let (hidden, buckets, start) = match (bytes.get(..4), word(4), word(8)) {
        (Some(b"QNN1"), Some(h), _) => (h, 1, 8),
        (Some(b"QNN2" | b"QNN3" | b"QNN4"), Some(h), Some(b)) => (h, b, 12),
        _ => {
            return Err("not a .qnn network (it must start with QNN1, QNN2, QNN3 or QNN4)".into());
        }
    };
    let version = bytes[3];
    let (mirrored, king_buckets, start) = if version >= b'3' {
        let flags = word(start).ok_or("a QNN3 file ends inside its header")?;
        let table: [u8; 64] = bytes
            .get(start + 4..start + 68)
            .ok_or("a QNN3 file ends inside its king-bucket table")?
            .try_into()
            .expect("64 bytes");
        if flags > 1 {
            return Err(format!(
                "flags {flags:#x}: only bit 0 (mirrored) is defined"
            ));
        }
        check_king_buckets(&table, flags == 1)?;
        (flags == 1, table, start + 68)
    } else {
        (false, [0; 64], start)
    };
    let (units, start) = if version == b'4' {
        let units = word(start).ok_or("a QNN4 file ends inside its header")?;
        (units, start + 4)
    } else {
        (0, start)
    };
    let inputs = INPUTS * king_bucket_count(&king_buckets);
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
        return Err(format!(
            "hidden size {hidden}: expected a multiple of 16 up to {MAX_HIDDEN}"
        ));
    }
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!(
            "{buckets} output buckets: expected 1 to {MAX_BUCKETS}"
        ));
    }
    if version == b'4' && !(1..=hidden_layer::MAX_UNITS).contains(&units) {
        return Err(format!(
            "a hidden layer of {units} units: expected 1 to {}",
            hidden_layer::MAX_UNITS
        ));
    }
    let features = inputs * hidden + hidden;
    let expected = if version == b'4' {
        start + 2 * features + hidden_layer::file_size(hidden, buckets, units)
    } else {
        start + 2 * (features + 2 * hidden * buckets) + 4 * buckets
    };
    if bytes.len() != expected {
        return Err(format!(
            "{} bytes for hidden size {hidden}, {buckets} buckets, {inputs} inputs and L1 {units}: expected {expected}",
            bytes.len()
        ));
    }
    let mut values = bytes[start..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
    let feature_weights = take(inputs * hidden);
    let feature_biases = take(hidden);
    let rest = &bytes[start + 2 * features..];
    let (output_weights, output_biases, hidden_layer) = if version == b'4' {
        let layer = hidden_layer::parse(rest, hidden, buckets, units)?;
        (Vec::new(), Vec::new(), Some(layer))
    } else {
        let output_weights = take(2 * hidden * buckets);
        let output_biases = rest[4 * hidden * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        (output_weights, output_biases, None)
    };
    Ok(QuantisedNetwork {
        hidden,
        buckets,
        king_buckets,
        mirrored,
        feature_weights,
        feature_biases,
        output_weights,
        output_biases,
        hidden_layer,
    })
}

/// King buckets used by `table`: its largest entry + 1.
pub fn king_bucket_count(table: &[u8; 64]) -> usize {
    usize::from(*table.iter().max().expect("64 entries")) + 1
}

/// A king-bucket table must use every bucket from 0 to its largest (an
/// unused one would be weights no position trains), stay within
/// [`MAX_KING_BUCKETS`], and, mirrored, give each square its mirror
/// image's bucket.
fn check_king_buckets(table: &[u8; 64], mirrored: bool) -> Result<(), String> {
    let count = king_bucket_count(table);
    if count > MAX_KING_BUCKETS {
        return Err(format!("{count} king buckets: at most {MAX_KING_BUCKETS}"));
    }
    if let Some(unused) = (0..count as u8).find(|b| !table.contains(b)) {
        return Err(format!("king bucket {unused} is not used by any square"));
    }
    if mirrored && let Some(sq) = (0..64).find(|&sq| table[sq] != table[sq ^ 7]) {
        return Err(format!(
            "a mirrored king-bucket table gives square {sq} bucket {} and its mirror image bucket {}",
            table[sq],
            table[sq ^ 7]
        ));
    }
    Ok(())
}

fn row(values: &[i16]) -> TokenStream {
    let items = values.iter().map(|&v| Literal::i16_unsuffixed(v));
    quote!([#(#items),*])
}

/// The network as Rust items: `HIDDEN`, `BUCKETS`, the king-bucket
/// layout (`KING_BUCKETS`, `KING_BUCKET_COUNT`, `MIRRORED`), `INPUTS`,
/// `static NETWORK: Network<HIDDEN, BUCKETS, INPUTS>`, `L1` and `static
/// HIDDEN_LAYER` (see `hidden_layer::emit`), for a module that defines
/// `Network` and `HiddenLayer` with the fields named here. Unformatted (a hundred
/// thousand numbers gain nothing from layout).
pub fn emit(net: &QuantisedNetwork) -> String {
    let hidden = net.hidden;
    let rows = net.feature_weights.chunks_exact(hidden).map(row);
    let biases = row(&net.feature_biases);
    // With a hidden layer the output reads it, not the accumulators: the
    // accumulators' output weights are zeros the engine never reads.
    let outputs: Vec<TokenStream> = if net.hidden_layer.is_some() {
        vec![quote!([Vector([0; HIDDEN]); 2]); net.buckets]
    } else {
        net.output_weights
            .chunks_exact(2 * hidden)
            .map(|w| {
                let (ours, theirs) = w.split_at(hidden);
                let (ours, theirs) = (row(ours), row(theirs));
                quote!([Vector(#ours), Vector(#theirs)])
            })
            .collect()
    };
    let output_biases: Vec<Literal> = if net.hidden_layer.is_some() {
        vec![Literal::i32_unsuffixed(0); net.buckets]
    } else {
        net.output_biases
            .iter()
            .map(|&b| Literal::i32_unsuffixed(b))
            .collect()
    };
    let hidden_layer = hidden_layer::emit(net.hidden_layer.as_ref(), hidden, net.buckets);
    let hidden_lit = Literal::usize_unsuffixed(hidden);
    let buckets_lit = Literal::usize_unsuffixed(net.buckets);
    let king_count = king_bucket_count(&net.king_buckets);
    let king_count_lit = Literal::usize_unsuffixed(king_count);
    let inputs_lit = Literal::usize_unsuffixed(INPUTS * king_count);
    let king_table = net.king_buckets.iter().map(|&b| Literal::u8_unsuffixed(b));
    let mirrored = net.mirrored;
    let limits = limits();
    let tokens = quote! {
        /// Width of each perspective's accumulator.
        pub const HIDDEN: usize = #hidden_lit;
        /// Output buckets by material (see `bucket`).
        pub const BUCKETS: usize = #buckets_lit;
        /// King buckets: sets of 768 feature weights, one per region of
        /// the perspective's own king.
        pub const KING_BUCKET_COUNT: usize = #king_count_lit;
        /// The king bucket of each square of the perspective's own king,
        /// seen from its side (rank 1 is its back rank).
        pub const KING_BUCKETS: [u8; 64] = [#(#king_table),*];
        /// Whether a perspective whose king is on files e-h sees the
        /// board mirrored left to right.
        pub const MIRRORED: bool = #mirrored;
        /// Input features: 768 per king bucket.
        pub const INPUTS: usize = #inputs_lit;
        /// The embedded network (see `nets/README.md` for its recipe).
        pub static NETWORK: Network<HIDDEN, BUCKETS, INPUTS> = Network {
            feature_weights: [#(#rows),*],
            feature_biases: Vector(#biases),
            output_weights: [#(#outputs),*],
            output_biases: [#(#output_biases),*],
        };
        #hidden_layer
        #limits
    };
    format!(
        "// @generated by quince-codegen (build.rs) from the committed .qnn network.\n{tokens}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(hidden: u32) -> Vec<u8> {
        let h = hidden as usize;
        let mut bytes = b"QNN1".to_vec();
        bytes.extend_from_slice(&hidden.to_le_bytes());
        for i in 0..(INPUTS * h + 3 * h) {
            bytes.extend_from_slice(&((i % 7) as i16 - 3).to_le_bytes());
        }
        bytes.extend_from_slice(&(-12345i32).to_le_bytes());
        bytes
    }

    #[test]
    fn a_network_file_parses_into_its_parts() {
        let net = parse(&file(16)).unwrap();
        assert_eq!((net.hidden, net.buckets), (16, 1));
        assert_eq!(net.feature_weights.len(), 768 * 16);
        assert_eq!(&net.feature_weights[..4], &[-3, -2, -1, 0]);
        assert_eq!(net.output_weights.len(), 32);
        assert_eq!(net.output_biases, vec![-12345]);
        assert!(emit(&net).contains("pub const HIDDEN : usize = 16"));
    }

    #[test]
    fn a_bucketed_file_parses_into_its_parts() {
        let (h, b) = (16usize, 4u32);
        let mut bytes = b"QNN2".to_vec();
        bytes.extend_from_slice(&(h as u32).to_le_bytes());
        bytes.extend_from_slice(&b.to_le_bytes());
        for i in 0..(INPUTS * h + h + 2 * h * b as usize) {
            bytes.extend_from_slice(&((i % 5) as i16).to_le_bytes());
        }
        for bias in 0..b as i32 {
            bytes.extend_from_slice(&(bias * 100).to_le_bytes());
        }
        let net = parse(&bytes).unwrap();
        assert_eq!((net.hidden, net.buckets), (16, 4));
        assert_eq!(net.output_weights.len(), 4 * 32);
        assert_eq!(net.output_biases, vec![0, 100, 200, 300]);
        assert!(emit(&net).contains("pub const BUCKETS : usize = 4"));
        assert!(
            parse(&bytes[..bytes.len() - 4])
                .unwrap_err()
                .contains("expected")
        );
        let mut many = bytes.clone();
        many[8] = 17;
        assert!(parse(&many).unwrap_err().contains("buckets"));
    }

    /// A `QNN3` file of hidden size 16, one output bucket, and `table`.
    fn king_file(table: &[u8; 64], flags: u32) -> Vec<u8> {
        let h = 16usize;
        let mut bytes = b"QNN3".to_vec();
        for word in [h as u32, 1, flags] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(table);
        let inputs = INPUTS * king_bucket_count(table);
        for i in 0..(inputs * h + 3 * h) {
            bytes.extend_from_slice(&((i % 3) as i16).to_le_bytes());
        }
        bytes.extend_from_slice(&7i32.to_le_bytes());
        bytes
    }

    #[test]
    fn a_king_bucketed_file_parses_and_bad_tables_are_refused() {
        // Two buckets, mirrored: the king on rank 1 or anywhere else.
        let mut table = [1u8; 64];
        table[..8].fill(0);
        let net = parse(&king_file(&table, 1)).unwrap();
        assert!(net.mirrored);
        assert_eq!(net.king_buckets, table);
        assert_eq!(net.feature_weights.len(), 2 * 768 * 16);
        let code = emit(&net);
        assert!(
            code.contains("pub const INPUTS : usize = 1536"),
            "{code:.600}"
        );
        assert!(code.contains("pub const MIRRORED : bool = true"));
        // A mirrored table must treat a square and its mirror alike.
        let mut lopsided = table;
        lopsided[0] = 1;
        lopsided[8] = 0;
        assert!(
            parse(&king_file(&lopsided, 1))
                .unwrap_err()
                .contains("mirror")
        );
        assert!(parse(&king_file(&lopsided, 0)).is_ok());
        // Every bucket up to the largest is used.
        let mut gap = [0u8; 64];
        gap[63] = 2;
        assert!(parse(&king_file(&gap, 0)).unwrap_err().contains("bucket 1"));
        assert!(parse(&king_file(&table, 2)).unwrap_err().contains("flags"));
        let bytes = king_file(&table, 1);
        assert!(parse(&bytes[..40]).unwrap_err().contains("table"));
        assert!(
            parse(&bytes[..bytes.len() - 2])
                .unwrap_err()
                .contains("expected")
        );
    }

    /// A `QNN4` file: hidden size 16, one bucket, plain inputs, and a
    /// hidden layer of `units`.
    fn layer_file(units: u32) -> Vec<u8> {
        let h = 16usize;
        let mut bytes = b"QNN4".to_vec();
        for word in [h as u32, 1, 0] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(&[0; 64]);
        bytes.extend_from_slice(&units.to_le_bytes());
        for i in 0..(INPUTS * h + h) {
            bytes.extend_from_slice(&((i % 3) as i16).to_le_bytes());
        }
        let units = units as usize;
        bytes.extend((0..units * h).flat_map(|i| (i as i16 % 9 - 4).to_le_bytes()));
        for i in 0..2 * units + 1 {
            bytes.extend_from_slice(&(i as f32 * 0.5).to_le_bytes());
        }
        bytes
    }

    #[test]
    fn a_file_with_a_hidden_layer_parses_and_emits_it() {
        let net = parse(&layer_file(2)).unwrap();
        let layer = net.hidden_layer.as_ref().unwrap();
        assert_eq!((layer.units, layer.weights.len()), (2, 32));
        assert_eq!(layer.output_biases, [2.0]);
        assert!(net.output_weights.is_empty() && net.output_biases.is_empty());
        let code = emit(&net);
        assert!(code.contains("pub const L1 : usize = 2"));
        assert!(code.contains("[Vector ([0 ; HIDDEN]) ; 2]"), "{code:.400}");
        let bytes = layer_file(2);
        assert!(
            parse(&bytes[..bytes.len() - 1])
                .unwrap_err()
                .contains("L1 2: expected")
        );
        assert!(parse(&bytes[..82]).unwrap_err().contains("QNN4"));
        assert!(parse(&layer_file(65)).unwrap_err().contains("65 units"));
        // Plain networks say they have none.
        assert!(emit(&parse(&file(16)).unwrap()).contains("pub const L1 : usize = 0"));
    }

    #[test]
    fn truncated_or_foreign_files_are_refused() {
        let bytes = file(16);
        assert!(
            parse(&bytes[..bytes.len() - 1])
                .unwrap_err()
                .contains("expected")
        );
        assert!(parse(b"QDG1\x10\0\0\0").unwrap_err().contains("QNN1"));
        let mut odd = bytes.clone();
        odd[4] = 15;
        assert!(parse(&odd).unwrap_err().contains("multiple of 16"));
    }

    /// Wider than 256 (where the engine's output sum needs more than one
    /// i32 run) is accepted, up to [`MAX_HIDDEN`].
    #[test]
    fn widths_up_to_the_maximum_parse() {
        let net = parse(&file(512)).unwrap();
        assert_eq!(net.output_weights.len(), 1024);
        let mut too_wide = file(16);
        too_wide[4..8].copy_from_slice(&(MAX_HIDDEN as u32 + 16).to_le_bytes());
        assert!(parse(&too_wide).unwrap_err().contains("up to 1024"));
    }
}
