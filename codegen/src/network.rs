//! The NNUE network as Rust source: `build.rs` reads the committed `.qnn`
//! file (written by `quince-train`) and emits its weights as a `static`, so
//! the engine carries its network in the binary with nothing to load or
//! parse at run time.
//!
//! `.qnn` layout (little endian): `QNN2`, `u32` hidden size H, `u32`
//! output buckets B, `i16` feature weights `[768][H]`, `i16` feature
//! biases `[H]`, `i16` output weights `[B][2H]` (each bucket's side to
//! move's half first), `i32` output biases `[B]`. `QNN1` is the format
//! before buckets: no B (one bucket), the rest the same.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The 768 inputs: 2 colours (own, opponent) x 6 pieces x 64 squares.
pub const INPUTS: usize = 768;

/// The widest accumulator the engine's integer output layer sums exactly.
pub const MAX_HIDDEN: usize = 256;
/// The most output buckets a file may have (more bands of material than
/// this would leave each with too few positions to learn from).
pub const MAX_BUCKETS: usize = 16;

/// A parsed `.qnn` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedNetwork {
    pub hidden: usize,
    pub buckets: usize,
    pub feature_weights: Vec<i16>,
    pub feature_biases: Vec<i16>,
    /// `[bucket][2H]`.
    pub output_weights: Vec<i16>,
    pub output_biases: Vec<i32>,
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
        (Some(b"QNN2"), Some(h), Some(b)) => (h, b, 12),
        _ => return Err("not a .qnn network (it must start with QNN1 or QNN2)".into()),
    };
    // The engine sums each half of the output layer in i32: with weights
    // clipped to ±1.98 a term is at most 255 * 127 * 255, and 256 of them
    // still fit. A wider network needs a wider sum there first.
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
    let words = INPUTS * hidden + hidden + 2 * hidden * buckets;
    let expected = start + 2 * words + 4 * buckets;
    if bytes.len() != expected {
        return Err(format!(
            "{} bytes for hidden size {hidden} and {buckets} buckets: expected {expected}",
            bytes.len()
        ));
    }
    let mut values = bytes[start..start + 2 * words]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
    let feature_weights = take(INPUTS * hidden);
    let feature_biases = take(hidden);
    let output_weights = take(2 * hidden * buckets);
    let output_biases = bytes[start + 2 * words..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok(QuantisedNetwork {
        hidden,
        buckets,
        feature_weights,
        feature_biases,
        output_weights,
        output_biases,
    })
}

fn row(values: &[i16]) -> TokenStream {
    let items = values.iter().map(|&v| Literal::i16_unsuffixed(v));
    quote!([#(#items),*])
}

/// The network as Rust items: `HIDDEN`, `BUCKETS` and `static NETWORK:
/// Network<HIDDEN, BUCKETS>`, for a module that defines `Network` with the
/// fields named here. Unformatted (a hundred thousand numbers gain nothing
/// from layout).
pub fn emit(net: &QuantisedNetwork) -> String {
    let hidden = net.hidden;
    let rows = net.feature_weights.chunks_exact(hidden).map(row);
    let biases = row(&net.feature_biases);
    let outputs = net.output_weights.chunks_exact(2 * hidden).map(|w| {
        let (ours, theirs) = w.split_at(hidden);
        let (ours, theirs) = (row(ours), row(theirs));
        quote!([Vector(#ours), Vector(#theirs)])
    });
    let output_biases = net
        .output_biases
        .iter()
        .map(|&b| Literal::i32_unsuffixed(b));
    let hidden_lit = Literal::usize_unsuffixed(hidden);
    let buckets_lit = Literal::usize_unsuffixed(net.buckets);
    let tokens = quote! {
        /// Width of each perspective's accumulator.
        pub const HIDDEN: usize = #hidden_lit;
        /// Output buckets by material (see `bucket`).
        pub const BUCKETS: usize = #buckets_lit;
        /// The embedded network (see `nets/README.md` for its recipe).
        pub static NETWORK: Network<HIDDEN, BUCKETS> = Network {
            feature_weights: [#(#rows),*],
            feature_biases: Vector(#biases),
            output_weights: [#(#outputs),*],
            output_biases: [#(#output_biases),*],
        };
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
}
