// Instructions per queen lookup of Gigantua/Chess_Movegen's own techniques,
// for the atlas's gap list (reports/atlas.md): callgrind cannot run the
// reference's movegen_compare as built (-march=native: AVX-512 on the CPUs
// that have it, which valgrind 3.19 cannot decode) and times every technique
// in one process, so this small driver calls one technique of the
// reference's headers, built with the reference's Makefile flags but
// -march=x86-64-v3 (the flags of Quince's own callgrind build), in the
// workload of `quince lookups --mode grouped`: twelve squares per occupancy,
// 341 occupancies a pass, the results folded into one value so that
// nothing is optimised away. The reference's code is called, not copied.
//
// Built and run by the atlas (xtask/src/atlas/reference_instructions.rs):
//   cmg-instructions TECHNIQUE PASSES         prints the folded result
//   cmg-instructions TECHNIQUE PASSES --time  and then the seconds the
//                                             passes took (steady clock)
// The difference of two pass counts under callgrind is the instructions of
// the lookups alone (start-up and table initialisation cancel). Built a
// second time with -march=native and timed, it gives the reference's own
// code in Quince's own workload, run by the atlas beside Quince's grouped
// runs in every round: like with like in everything but the code.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <immintrin.h>
// The reference's headers rely on what its Main.cpp includes before them.
#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <string_view>
#include <type_traits>
#include <vector>

#include "AVXShift.hpp"
#include "Bitrotation.hpp"
#include "Boblookup.hpp"
#include "Boblookup_advanced.hpp"
#include "Dumb7Fill.hpp"
#include "Exploading.hpp"
#include "FoldingHash.hpp"
#include "GeneticObstructionDiff.hpp"
#include "Hash_Fancy.hpp"
#include "Hash_Plain.hpp"
#include "Hash_Var.hpp"
#include "Hyperbola.hpp"
#include "Hyperchess.hpp"
#include "Kindergarten.hpp"
#include "KindergartenSuperSissyBoard.hpp"
#include "KoggeStone.hpp"
#include "Leorik.hpp"
#include "ObstructionDiff.hpp"
#include "Pext.hpp"
#include "QBB.hpp"
#include "Rotated.hpp"
#include "SBAMG.hpp"
#include "Sissy.hpp"
#include "SlideArithm.hpp"
#include "Spectralmagic.hpp"
#include "SplitPext.hpp"
#include "Switch.hpp"

namespace {

// The inputs of `quince lookups --mode grouped`, number for number
// (quince::sliders::lookups::grouped_inputs: xorshift 13/7/17 from the same
// seed, twelve squares drawn, then the occupancy as two draws ANDed, about
// a quarter of the squares, with the twelve squares set).
struct Workload {
    static constexpr int kOccupancies = 341;
    static constexpr int kPerOccupancy = 12;
    uint64_t occupancy[kOccupancies];
    uint8_t square[kOccupancies * kPerOccupancy];

    Workload() {
        uint64_t state = 0xD1B54A32D192ED03ull;
        auto next = [&state]() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            return state;
        };
        for (int i = 0; i < kOccupancies; ++i) {
            for (int r = 0; r < kPerOccupancy; ++r) {
                square[i * kPerOccupancy + r] = static_cast<uint8_t>(next() % 64);
            }
            occupancy[i] = next() & next();
            for (int r = 0; r < kPerOccupancy; ++r) {
                // the slider stands on its square
                occupancy[i] |= uint64_t{1} << square[i * kPerOccupancy + r];
            }
        }
    }
};

// Twelve lookups per occupancy, folded; `prepare` is called once per
// occupancy (the two techniques that keep the occupancy in their own state,
// HyperCube and rotated bitboards, need it, as in the reference's harness).
//
// The harness's loops stay rolled, as Quince's grouped loop is (rustc leaves
// it rolled): left to -funroll-loops, clang wrote some techniques' twelve
// lookups out one by one and others not, so a count or a rate compared the
// loops as well as the lookups. Measured under callgrind: the reference's
// fancy magic ran 17.3 instructions per lookup with its twelve unrolled and
// 19.6 rolled, Quince's 21.4 (one AND keeping the square's index below 64 and
// the loop's compare beside the same lookup, instruction for instruction).
// The pragmas touch these loops only; the techniques' own loops keep the
// reference's flags.
template <typename Lookup, typename Prepare>
uint64_t run(const Workload& w, long passes, Lookup lookup, Prepare prepare) {
    uint64_t folded = 0;
    for (long p = 0; p < passes; ++p) {
#pragma clang loop unroll(disable)
        for (int i = 0; i < Workload::kOccupancies; ++i) {
            const uint64_t occ = w.occupancy[i];
            prepare(occ);
#pragma clang loop unroll(disable)
            for (int r = 0; r < Workload::kPerOccupancy; ++r) {
                folded ^= lookup(w.square[i * Workload::kPerOccupancy + r], occ);
            }
        }
        // Keep each pass's work from being merged with the next one's.
        asm volatile("" : "+r"(folded));
    }
    return folded;
}

void no_prepare(uint64_t) {}

}  // namespace

int main(int argc, char** argv) {
    const bool timed = argc == 4 && !std::strcmp(argv[3], "--time");
    if (argc != 3 && !timed) {
        std::fprintf(stderr,
                     "usage: cmg-instructions TECHNIQUE PASSES [--time]\n"
                     "TECHNIQUE: a Quince technique name that the reference has (the\n"
                     "atlas's SAME_TECHNIQUE list, less galois-field, which needs AVX-512)\n");
        return 2;
    }
    const char* technique = argv[1];
    const long passes = std::strtol(argv[2], nullptr, 10);
    if (passes < 0) {
        std::fprintf(stderr, "PASSES must be a non-negative number\n");
        return 2;
    }
    static const Workload workload;
    uint64_t folded = 0;
    bool known = false;
    // The reference's initialisers run before the clock starts.
    Chess_Lookup::SISSY::Init();
    Chess_Lookup::KGSSB::Init();
    Chess_Lookup::SpectralMagic::Init();
    const auto start = std::chrono::steady_clock::now();
    // One line per technique: Quince's name, then the reference's call (its
    // row name in the comment where the two differ in more than spelling).
#define TECHNIQUE(NAME, CALL, PREPARE)                                                       \
    if (!known && !std::strcmp(technique, NAME)) {                                          \
        known = true;                                                                        \
        folded = run(workload, passes, [](int sq, uint64_t occ) { return CALL(sq, occ); }, PREPARE); \
    }
    TECHNIQUE("hq", Chess_Lookup::HyperbolaQsc::Queen, no_prepare)
    TECHNIQUE("magic", Chess_Lookup::Var::Queen, no_prepare)  // Fancy Magic BB - Variable shift
    TECHNIQUE("pext", Chess_Lookup::Lookup_Pext::Queen, no_prepare)
    TECHNIQUE("pext-emulated", Chess_Lookup::Lookup_Pext::Queen_Emulated, no_prepare)
    TECHNIQUE("split-pext", Chess_Lookup::SplitPext::Queen, no_prepare)
    TECHNIQUE("sissy", Chess_Lookup::SISSY::Queen, no_prepare)
    TECHNIQUE("kindergarten-super-sissy", Chess_Lookup::KGSSB::Queen, no_prepare)
    TECHNIQUE("classical", Chess_Lookup::BobLU::Queen, no_prepare)  // Classical Bob-Mike
    TECHNIQUE("obstruction", Chess_Lookup::ObstructionDiff::Queen, no_prepare)
    TECHNIQUE("sbamg", Chess_Lookup::SBAMG::Queen, no_prepare)
    TECHNIQUE("slide-arithmetic", Chess_Lookup::SlideArithm::Queen, no_prepare)
    TECHNIQUE("leorik", Chess_Lookup::Leorik::Queen, no_prepare)
    TECHNIQUE("qbb", Chess_Lookup::QBB::Queen, no_prepare)
    TECHNIQUE("bitrotation", Chess_Lookup::Bitrotation::Queen, no_prepare)
    TECHNIQUE("genetic-obstruction", Chess_Lookup::GeneticObstructionDiff::Queen, no_prepare)
    TECHNIQUE("kindergarten", Chess_Lookup::Kindergarten::Queen, no_prepare)
    TECHNIQUE("plain-magic", Chess_Lookup::Plain::Queen, no_prepare)
    TECHNIQUE("black-magic", Chess_Lookup::Fancy::Queen, no_prepare)  // Black Magic BB - Fixed shift
    TECHNIQUE("kogge-stone", Chess_Lookup::KoggeStone::Queen, no_prepare)
    TECHNIQUE("dumb7", Chess_Lookup::Dumb7Fill::Queen, no_prepare)
    TECHNIQUE("rotated", Chess_Lookup::RotatedBB::Queen, Chess_Lookup::RotatedBB::Prepare)
    TECHNIQUE("avx2-shift", Chess_Lookup::AVXShift::Queen, no_prepare)
    TECHNIQUE("switch", Chess_Lookup::Lookup_Switch::Queen, no_prepare)
    TECHNIQUE("bob-mike", Chess_Lookup::BobAdvanced::Queen, no_prepare)  // Advanced Bob-Mike
    TECHNIQUE("exploding", Chess_Lookup::ExplodingBoard::Queen, no_prepare)
    TECHNIQUE("hypercube", Chess_Lookup::Lookup_Hyper::Queen, Chess_Lookup::Lookup_Hyper::Prepare)
    TECHNIQUE("folding-hash", Chess_Lookup::FoldingHash::Queen, no_prepare)
    TECHNIQUE("spectral-magic", Chess_Lookup::SpectralMagic::Queen, no_prepare)
#undef TECHNIQUE
    if (!known) {
        std::fprintf(stderr, "unknown technique '%s'\n", technique);
        return 2;
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::printf("%llu\n", static_cast<unsigned long long>(folded));
    if (timed) {
        std::printf("%.9f\n", took.count());
    }
    return 0;
}
