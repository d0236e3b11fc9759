//! The one pseudo-random generator behind every deal and every redeal shuffle.
//!
//! We own the generator and the shuffle so that no dependency upgrade can ever
//! change what deal 1 is. The algorithm is fixed forever:
//!
//! * **Seed.** `seed = fnv1a64(game id bytes) ^ (deal * 0x9E3779B97F4A7C15) ^
//!   ((redeal + 1) * 0xC2B2AE3D27D4EB4F)` (wrapping multiplications on `u64`),
//!   where `redeal` is 0 for the opening deal and `k` for the `k`-th redeal.
//! * **Generator.** SplitMix64 (Steele, Lea, Flood 2014): `state += 0x9E3779B97F4A7C15`,
//!   then the output is the state mixed by `z = (z ^ z>>30) * 0xBF58476D1CE4E5B9;
//!   z = (z ^ z>>27) * 0x94D049BB133111EB; z ^ z>>31`.
//! * **Bounded draw.** `below(n)`: draw `r` until `r >= (2^64 - n) mod n`, return
//!   `r mod n` (rejection, so every value is exactly equally likely).
//! * **Shuffle.** Fisher–Yates from the last index down: for `i = len-1 ..= 1`,
//!   swap `i` with `below(i + 1)`.

/// SplitMix64, the documented generator of this module.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

impl SplitMix64 {
    /// A generator started from `seed`; deals use [`SplitMix64::for_shuffle`].
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The seed for one shuffle of one game: see the module documentation.
    pub fn for_shuffle(game_id: &str, deal: u64, redeal: u32) -> Self {
        let seed = fnv1a64(game_id.as_bytes())
            ^ deal.wrapping_mul(GOLDEN)
            ^ (redeal as u64 + 1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        SplitMix64::new(seed)
    }

    /// The next number of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix64(self.state)
    }

    /// A uniformly drawn number in `0..n`; `n` must be positive.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        loop {
            let r = self.next_u64();
            // The threshold is below `n`, so any `r >= n` passes without
            // computing it: one division saved, the same numbers drawn.
            if r >= n || r >= n.wrapping_neg() % n {
                return r % n;
            }
        }
    }

    /// Fisher–Yates, last index first.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The SplitMix64 output mix; also a good general 64-bit hash finaliser.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a, 64-bit.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_reference_values() {
        // Reference outputs of SplitMix64 seeded with 1234567 (from the
        // original C code by Vigna).
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
        assert_eq!(g.next_u64(), 9817491932198370423);
    }

    #[test]
    fn fnv_reference() {
        assert_eq!(fnv1a64(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xAF63_DC4C_8601_EC8C);
    }

    #[test]
    fn below_draws_what_the_documented_rejection_draws() {
        let documented = |g: &mut SplitMix64, n: u64| {
            let threshold = n.wrapping_neg() % n;
            loop {
                let r = g.next_u64();
                if r >= threshold {
                    return r % n;
                }
            }
        };
        let (mut a, mut b) = (SplitMix64::new(99), SplitMix64::new(99));
        for n in (1..200).chain([1 << 40, u64::MAX / 3 * 2, u64::MAX]) {
            for _ in 0..20 {
                assert_eq!(a.below(n), documented(&mut b, n), "n = {n}");
            }
        }
    }

    #[test]
    fn below_stays_in_range_and_shuffle_permutes() {
        let mut g = SplitMix64::new(7);
        for n in 1..50 {
            assert!(g.below(n) < n);
        }
        let mut v: Vec<u32> = (0..52).collect();
        g.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..52).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
