//! GIF's LZW compression, made for board frames.
//!
//! A frame of a game's GIF is mostly runs: transparent squares that did not change, and the
//! flat colour of a square around its piece. A general LZW encoder walks its dictionary once
//! per input byte, runs included, and that walk was over 90% of a GIF's encoding time. This
//! one keeps, for every byte value `b`, the codes of `b`, `bb`, `bbb`, … that the dictionary
//! holds, and codes a run by jumping straight to the longest of them, after a plain byte
//! compare; everything else goes through the usual greedy longest match over a hash table.
//!
//! The output is ordinary GIF LZW (variable code width from `min_code_size + 1` up to 12
//! bits, a clear code when the table is full, least significant bit first), so any decoder
//! reads it. The choice of strings differs from a textbook encoder only in that a run may be
//! coded as a run where a longer mixed string was also known: the decoder does not care
//! which strings the encoder picks, only that each was in its table, which the tests check
//! against an independent decoder.

/// Codes are at most 12 bits wide.
const MAX_CODES: u32 = 1 << 12;
/// Hash table slots: twice the most entries the table can hold, so probes stay short.
const SLOTS: usize = 1 << 13;
const EMPTY: u32 = u32::MAX;

/// A reusable encoder: [`Lzw::encode`] keeps its tables between frames, so a GIF's frames
/// allocate nothing after the first.
///
/// A frame may also be encoded in parts ([`Lzw::begin`], [`Lzw::push`] …, [`Lzw::finish`]),
/// and the encoder cloned between two parts: a GIF's first frame starts from a cached clone
/// taken after the rows it shares with other games (the start position's board).
pub struct Lzw {
    min_code_size: u8,
    /// `(prefix << 8 | byte) << 12 | code`, or [`EMPTY`].
    slots: Vec<u32>,
    /// `run_of[b]` is 0 while the table holds no run of `b` longer than one byte, else `i +
    /// 1` for the list `runs[i]`, whose entry `k - 1` is the code of `k` bytes `b` in a row.
    /// Only the few colours that repeat have a list: a copy of the encoder (one per GIF) is
    /// then a few allocations, not one for each of the 256 bytes.
    run_of: [u16; 256],
    /// The lists in use (the first `used`; the others are kept for reuse after a reset).
    runs: Vec<Vec<u16>>,
    used: usize,
    // The state of one `encode` call.
    next: u32,
    width: u32,
    acc: u64,
    bits: u32,
    /// The string emitted last since the table was cleared: its code, and `Some(b)` when it
    /// is a run of `b` (its length is then the third field).
    last: Option<(u32, Option<u8>, usize)>,
}

impl Clone for Lzw {
    /// A copy of the state, with only the run lists in use.
    fn clone(&self) -> Lzw {
        Lzw {
            min_code_size: self.min_code_size,
            slots: self.slots.clone(),
            run_of: self.run_of,
            runs: self.runs[..self.used].to_vec(),
            used: self.used,
            next: self.next,
            width: self.width,
            acc: self.acc,
            bits: self.bits,
            last: self.last,
        }
    }
}

impl Lzw {
    /// An encoder for pixels that are all below `1 << min_code_size` (2..=8).
    pub fn new(min_code_size: u8) -> Lzw {
        assert!(
            (2..=8).contains(&min_code_size),
            "GIF's minimum code size is 2..=8 for 8-bit pixels"
        );
        Lzw {
            min_code_size,
            slots: vec![EMPTY; SLOTS],
            run_of: [0; 256],
            runs: Vec::new(),
            used: 0,
            next: 0,
            width: 0,
            acc: 0,
            bits: 0,
            last: None,
        }
    }

    /// The longest run of `b` the table holds a code for.
    fn known(&self, b: u8) -> usize {
        match self.run_of[usize::from(b)] {
            0 => 1,
            i => self.runs[usize::from(i) - 1].len(),
        }
    }

    /// The code of `k` bytes `b` in a row (`1 <= k <= known(b)`).
    fn run_code(&self, b: u8, k: usize) -> u32 {
        match self.run_of[usize::from(b)] {
            0 => u32::from(b),
            i => u32::from(self.runs[usize::from(i) - 1][k - 1]),
        }
    }

    /// Records `code` as the run of `b` one byte longer than the longest known.
    fn push_run(&mut self, b: u8, code: u32) {
        if self.run_of[usize::from(b)] == 0 {
            if self.used == self.runs.len() {
                self.runs.push(Vec::with_capacity(64));
            }
            let list = &mut self.runs[self.used];
            list.clear();
            list.push(u16::from(b));
            self.used += 1;
            self.run_of[usize::from(b)] = self.used as u16;
        }
        self.runs[usize::from(self.run_of[usize::from(b)]) - 1].push(code as u16);
    }

    fn clear_code(&self) -> u32 {
        1 << self.min_code_size
    }

    /// Empties the table: only the single bytes remain.
    fn reset(&mut self) {
        self.slots.fill(EMPTY);
        self.run_of = [0; 256];
        self.used = 0;
        self.next = self.clear_code() + 2;
        self.width = u32::from(self.min_code_size) + 1;
    }

    fn put(&mut self, code: u32, width: u32, out: &mut Vec<u8>) {
        self.acc |= u64::from(code) << self.bits;
        self.bits += width;
        while self.bits >= 8 {
            out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
    }

    fn slot_of(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - 13)) as usize
    }

    /// The code of string `prefix` followed by `byte`, if the table holds it.
    fn find(&self, prefix: u32, byte: u8) -> Option<u32> {
        let key = (prefix << 8) | u32::from(byte);
        let mut s = Self::slot_of(key);
        loop {
            let v = self.slots[s];
            if v == EMPTY {
                return None;
            }
            if v >> 12 == key {
                return Some(v & 0xFFF);
            }
            s = (s + 1) & (SLOTS - 1);
        }
    }

    /// Records `prefix` + `byte` as `code`, unless the table already holds that string.
    fn insert(&mut self, prefix: u32, byte: u8, code: u32) {
        let key = (prefix << 8) | u32::from(byte);
        let mut s = Self::slot_of(key);
        loop {
            let v = self.slots[s];
            if v == EMPTY {
                self.slots[s] = (key << 12) | code;
                return;
            }
            if v >> 12 == key {
                return;
            }
            s = (s + 1) & (SLOTS - 1);
        }
    }

    /// Appends the LZW data of `data` to `out`, preceded by the minimum code size byte:
    /// the layout `gif::Encoder::write_lzw_pre_encoded_frame` takes.
    ///
    /// # Panics
    /// If a byte of `data` is not below `1 << min_code_size`.
    pub fn encode(&mut self, data: &[u8], out: &mut Vec<u8>) {
        self.begin(out);
        self.push(data, out);
        self.finish(out);
    }

    /// Starts a frame: the minimum code size byte and a clear code, into `out`.
    pub fn begin(&mut self, out: &mut Vec<u8>) {
        let clear = self.clear_code();
        out.push(self.min_code_size);
        self.acc = 0;
        self.bits = 0;
        self.reset();
        self.last = None;
        self.put(clear, self.width, out);
    }

    /// Encodes the next part of the frame begun by [`Lzw::begin`] into `out` (the bits of
    /// a code not yet filling a byte wait in the encoder). A string never spans two parts:
    /// the output is valid LZW whatever the cut, only sometimes a code longer.
    ///
    /// # Panics
    /// If a byte of `data` is not below `1 << min_code_size`.
    pub fn push(&mut self, data: &[u8], out: &mut Vec<u8>) {
        let clear = self.clear_code();
        let mut i = 0;
        while i < data.len() {
            let b = data[i];
            assert!(u32::from(b) < clear, "pixel {b} outside the palette");
            // The longest run of `b` here that the table holds a code for.
            let known = self.known(b);
            let limit = known.min(data.len() - i);
            let run = 1 + leading(&data[i + 1..i + limit], b);
            let (code, len, pure) = if run >= 2 {
                (self.run_code(b, run), run, true)
            } else {
                // Greedy longest match.
                let mut code = u32::from(b);
                let mut j = i + 1;
                let mut pure = true;
                while j < data.len() {
                    match self.find(code, data[j]) {
                        Some(c) => {
                            pure &= data[j] == b;
                            code = c;
                            j += 1;
                        }
                        None => break,
                    }
                }
                (code, j - i, pure)
            };
            // What the decoder adds on reading this code: the previous string and this
            // string's first byte.
            if let Some((p, p_run, p_len)) = self.last {
                let new = self.next;
                self.insert(p, b, new);
                if p_run == Some(b) && self.known(b) == p_len {
                    self.push_run(b, new);
                }
                self.next += 1;
                if self.next > (1 << self.width) && self.width < 12 {
                    self.width += 1;
                }
            }
            self.put(code, self.width, out);
            self.last = Some((code, pure.then_some(b), len));
            i += len;
            if self.next == MAX_CODES {
                // Full: start over (the decoder has added every entry by now).
                self.put(clear, self.width, out);
                self.reset();
                self.last = None;
            }
        }
    }

    /// Ends the frame: the end code, and the last bits into `out`.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        let clear = self.clear_code();
        // The decoder has added an entry for the last code too: its width may have grown.
        let end_width = if self.last.is_some() && self.next == (1 << self.width) && self.width < 12
        {
            self.width + 1
        } else {
            self.width
        };
        self.put(clear + 1, end_width, out);
        if self.bits > 0 {
            out.push(self.acc as u8);
            self.acc = 0;
            self.bits = 0;
        }
        self.last = None;
    }
}

/// How many bytes at the start of `data` equal `b`, compared sixteen at a time while they
/// do: a frame's transparent stretches are long, and a byte-by-byte scan of them was two
/// fifths of the encoder's time.
#[inline]
fn leading(data: &[u8], b: u8) -> usize {
    const LANES: usize = 16;
    let splat = [b; LANES];
    let mut n = 0;
    while let Some(chunk) = data.get(n..n + LANES) {
        if chunk != splat {
            break;
        }
        n += LANES;
    }
    n + data[n..]
        .iter()
        .position(|&x| x != b)
        .unwrap_or(data.len() - n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes through the `gif` crate's decoder (weezl): a one-frame GIF of `data`.
    fn roundtrip(data: &[u8], min_code_size: u8) -> Vec<u8> {
        let mut lzw = Vec::new();
        Lzw::new(min_code_size).encode(data, &mut lzw);
        let colours = 1usize << min_code_size;
        let palette: Vec<u8> = (0..colours * 3).map(|i| i as u8).collect();
        let mut file = Vec::new();
        {
            let w = data.len().clamp(1, 60_000) as u16;
            let mut enc = ::gif::Encoder::new(&mut file, w, 1, &palette).unwrap();
            let frame = ::gif::Frame {
                width: w,
                height: 1,
                buffer: std::borrow::Cow::Borrowed(&lzw),
                ..::gif::Frame::default()
            };
            enc.write_lzw_pre_encoded_frame(&frame).unwrap();
        }
        let mut opts = ::gif::DecodeOptions::new();
        opts.set_color_output(::gif::ColorOutput::Indexed);
        let mut dec = opts.read_info(std::io::Cursor::new(file)).unwrap();
        let frame = dec.read_next_frame().unwrap().unwrap();
        frame.buffer.to_vec()
    }

    /// A strict decoder written from the GIF89a specification (appendix F): every code must
    /// be known or the one being defined, the end code must come at the width the table
    /// implies, and nothing but zero padding may follow it. (The `gif` crate's decoder stops
    /// at the frame's pixel count and forgives a wrong end.)
    fn decode_strict(lzw: &[u8]) -> Vec<u8> {
        let (min, data) = lzw.split_first().expect("the minimum code size byte");
        let clear = 1usize << min;
        let mut table: Vec<Vec<u8>> = Vec::new();
        let mut width = u32::from(*min) + 1;
        let (mut acc, mut bits, mut pos) = (0u64, 0u32, 0usize);
        let mut prev: Option<Vec<u8>> = None;
        let mut out = Vec::new();
        loop {
            while bits < width {
                let byte = *data.get(pos).expect("the data ended before the end code");
                acc |= u64::from(byte) << bits;
                pos += 1;
                bits += 8;
            }
            let code = (acc & ((1 << width) - 1)) as usize;
            acc >>= width;
            bits -= width;
            if code == clear {
                table = (0..clear).map(|k| vec![k as u8]).collect();
                table.push(Vec::new());
                table.push(Vec::new());
                width = u32::from(*min) + 1;
                prev = None;
                continue;
            }
            assert!(!table.is_empty(), "the data must begin with a clear code");
            if code == clear + 1 {
                assert_eq!(pos, data.len(), "bytes after the end code");
                assert!(
                    bits < 8 && acc == 0,
                    "the padding after the end code is not zero"
                );
                return out;
            }
            let entry = match prev.take() {
                None => table[code].clone(),
                Some(p) => {
                    assert!(
                        code <= table.len(),
                        "code {code} beyond the table ({})",
                        table.len()
                    );
                    let e = if code < table.len() {
                        table[code].clone()
                    } else {
                        let mut e = p.clone();
                        e.push(p[0]);
                        e
                    };
                    if table.len() < 4096 {
                        let mut new = p;
                        new.push(e[0]);
                        table.push(new);
                    }
                    e
                }
            };
            out.extend_from_slice(&entry);
            prev = Some(entry);
            if table.len() == (1 << width) && width < 12 {
                width += 1;
            }
        }
    }

    fn check(data: &[u8], min_code_size: u8) {
        assert!(data.len() <= 60_000);
        let mut lzw = Vec::new();
        Lzw::new(min_code_size).encode(data, &mut lzw);
        assert!(
            decode_strict(&lzw) == data,
            "strict decoder differs ({} bytes)",
            data.len()
        );
        let back = roundtrip(data, min_code_size);
        assert_eq!(back.len(), data.len().max(1));
        if !data.is_empty() {
            assert!(back == data, "round trip differs ({} bytes)", data.len());
        }
    }

    #[test]
    fn runs_mixed_data_and_every_length_round_trip() {
        let mut rng = fastrand::Rng::with_seed(7);
        // Every length up to a few hundred: the code width grows at 2^k entries and the
        // end code must be written at the width the decoder expects there.
        for len in 1..400 {
            let data: Vec<u8> = (0..len).map(|_| rng.u8(..4)).collect();
            check(&data, 2);
        }
        for len in [
            511, 512, 513, 1023, 1024, 1025, 4093, 4094, 4095, 4096, 4097,
        ] {
            let noise: Vec<u8> = (0..len).map(|_| rng.u8(..)).collect();
            check(&noise, 8);
            let runs: Vec<u8> = (0..len).map(|i| (i / 37 % 3) as u8).collect();
            check(&runs, 8);
        }
    }

    #[test]
    fn long_inputs_clear_the_table_and_still_round_trip() {
        let mut rng = fastrand::Rng::with_seed(11);
        // Noise fills the 4096-entry table many times over.
        let noise: Vec<u8> = (0..60_000).map(|_| rng.u8(..)).collect();
        check(&noise, 8);
        // Board-like rows: long transparent runs, flat squares, some sprite pixels.
        let mut board = Vec::new();
        while board.len() < 59_000 {
            board.extend(std::iter::repeat_n(255u8, rng.usize(1..300)));
            board.extend(std::iter::repeat_n(rng.u8(..16), rng.usize(1..60)));
            for _ in 0..rng.usize(0..20) {
                board.push(rng.u8(..255));
            }
        }
        check(&board, 8);
        // One very long run.
        check(&vec![3u8; 60_000], 8);
        check(&vec![0u8; 59_999], 2);
    }

    #[test]
    fn a_frame_encoded_in_parts_from_a_cloned_encoder_decodes_to_the_whole() {
        let mut rng = fastrand::Rng::with_seed(13);
        for round in 0..60 {
            let len = rng.usize(2..20_000);
            let data: Vec<u8> = if round % 2 == 0 {
                (0..len).map(|_| rng.u8(..)).collect()
            } else {
                let mut d = Vec::new();
                while d.len() < len {
                    d.extend(std::iter::repeat_n(rng.u8(..8), rng.usize(1..200)));
                }
                d.truncate(len);
                d
            };
            // Cut at arbitrary points (a run or a match across the cut included); the
            // encoder is cloned after the first part, as the GIF's cached board rows are.
            let cut = rng.usize(1..len);
            let cut2 = rng.usize(cut..=len);
            let mut head = Vec::new();
            let mut first = Lzw::new(8);
            first.begin(&mut head);
            first.push(&data[..cut], &mut head);
            let mut lzw = first.clone();
            let mut out = head.clone();
            lzw.push(&data[cut..cut2], &mut out);
            lzw.push(&data[cut2..], &mut out);
            lzw.finish(&mut out);
            assert!(
                decode_strict(&out) == data,
                "round {round}: cut at {cut}, {cut2}"
            );
            // The encoder the clone came from is untouched by the clone's work, and the
            // clone is the same encoder: the same parts give the same bytes.
            let mut again = head;
            first.push(&data[cut..cut2], &mut again);
            first.push(&data[cut2..], &mut again);
            first.finish(&mut again);
            assert!(
                again == out,
                "round {round}: the clone codes as the original"
            );
        }
    }

    #[test]
    fn runs_compress_like_lzw() {
        // A run of n bytes takes about sqrt(2n) codes.
        let mut out = Vec::new();
        Lzw::new(8).encode(&vec![9u8; 50_000], &mut out);
        assert!(out.len() < 600, "{} bytes for a 50,000-byte run", out.len());
    }

    #[test]
    fn leading_counts_what_a_byte_scan_counts() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2_000 {
            let len = rng.usize(0..80);
            let b = rng.u8(0..3);
            // Mostly `b`, so that runs cross the sixteen-byte chunks at every offset.
            let data: Vec<u8> = (0..len)
                .map(|_| if rng.u8(0..8) == 0 { rng.u8(0..3) } else { b })
                .collect();
            let scan = data.iter().take_while(|&&x| x == b).count();
            assert_eq!(leading(&data, b), scan, "{data:?} and {b}");
        }
    }
}
