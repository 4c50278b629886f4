//! The per-byte loops of Cajitas's pictures, in a crate of their own so that test builds
//! compile them optimised (as the rules crate is): unoptimised, filtering a 512 px board's
//! rows took about 37 ms, more than the rest of drawing it. Pure computation: no I/O beyond
//! the in-memory writer.

/// The pixel rows of an 8-bit RGB PNG as they come: each row
/// Paeth-filtered against the one before and handed to fdeflate whole, with its filter byte,
/// in one piece. (The png crate's `StreamWriter` hands the filter byte and the row over
/// separately, which ends fdeflate's runs at every row, and writes the compressed stream 8
/// bytes at a time through its chunk writer: about 13% slower per board.) The result is the
/// zlib stream of the PNG's IDAT chunk.
pub struct PngRows {
    /// The bytes of one row.
    stride: usize,
    /// The rows still to come.
    left: u32,
    /// The previous row, unfiltered (zeros before the first).
    prev: Vec<u8>,
    /// The filter byte and the filtered row.
    line: Vec<u8>,
    deflate: fdeflate::Compressor<Vec<u8>>,
}

/// The Paeth filter's type byte.
const PAETH: u8 = 4;

impl PngRows {
    /// Rows of a `width` × `height` RGB picture, none given yet.
    pub fn new(width: u32, height: u32) -> std::io::Result<PngRows> {
        if width == 0 || height == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "PNG rows: a picture has at least one pixel each way",
            ));
        }
        let stride = width as usize * 3;
        Ok(PngRows {
            stride,
            left: height,
            prev: vec![0; stride],
            line: vec![0; stride + 1],
            deflate: fdeflate::Compressor::new(Vec::with_capacity(stride * height as usize / 16))?,
        })
    }

    /// Adds whole rows of RGB pixels, the next ones of the picture.
    pub fn push(&mut self, rows: &[u8]) -> std::io::Result<()> {
        if !rows.len().is_multiple_of(self.stride) || rows.len() / self.stride > self.left as usize
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "PNG rows: not whole rows, or more than the picture's height",
            ));
        }
        // Each row is filtered against the one above it: the band's own row before it, or
        // for the band's first the last row of the band before (kept in `prev`), so that
        // rows are not copied one by one.
        let mut above: &[u8] = &self.prev;
        for row in rows.chunks_exact(self.stride) {
            self.line[0] = PAETH;
            if row == above {
                // Paeth predicts every byte of a row equal to the one above as that byte
                // (up-left equals left, so up is nearest): the filtered row is zeros. A
                // board's rows repeat through most of each rank's empty squares.
                self.line[1..].fill(0);
            } else {
                paeth_row(above, row, &mut self.line[1..]);
            }
            self.deflate.write_data(&self.line)?;
            self.left -= 1;
            above = row;
        }
        if let Some(last) = rows.rchunks_exact(self.stride).next() {
            self.prev.copy_from_slice(last);
        }
        Ok(())
    }

    /// The zlib stream of the rows, once every row has come.
    pub fn finish(self) -> std::io::Result<Vec<u8>> {
        if self.left > 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "PNG rows: fewer than the picture's height",
            ));
        }
        self.deflate.finish()
    }
}

/// Filters `cur` (RGB, 3 bytes a pixel) against `prev` with the PNG's Paeth predictor into
/// `out` (PNG specification, 9.4): each byte less the nearest of left (a), up (b) and up-left
/// (c) to a + b - c, ties going to a, then b.
///
/// The row goes sixteen bytes at a time. Where a block and the pixel before it equal the row
/// above, every byte's up-left equals its left, so up is nearest and the block filters to
/// zeros: two compares instead of the arithmetic (a board's rows repeat through its empty
/// squares and the flat parts of its pieces). Other blocks are filtered without a dependency
/// between bytes, so that the compiler vectorises them.
fn paeth_row(prev: &[u8], cur: &[u8], out: &mut [u8]) {
    const BPP: usize = 3;
    const BLOCK: usize = 16;
    let n = cur.len();
    // The first pixel has no left neighbour: a = c = 0, the predictor is b.
    for i in 0..BPP.min(n) {
        out[i] = cur[i].wrapping_sub(prev[i]);
    }
    let mut i = BPP;
    while i + BLOCK <= n {
        let block = |row: &[u8], from: usize| -> [u8; BLOCK] {
            row[from..from + BLOCK]
                .try_into()
                .expect("a block of the row")
        };
        // The bytes i - 3 .. i + 16, in two overlapping blocks.
        let same = block(cur, i) == block(prev, i) && block(cur, i - BPP) == block(prev, i - BPP);
        let o = &mut out[i..i + BLOCK];
        if same {
            o.fill(0);
        } else {
            paeth_bytes(&prev[i - BPP..i + BLOCK], &cur[i - BPP..i + BLOCK], o);
        }
        i += BLOCK;
    }
    if i < n {
        paeth_bytes(&prev[i - BPP..], &cur[i - BPP..], &mut out[i..n]);
    }
}

/// The Paeth filter of `cur[3..]` into `out`, `prev` and `cur` starting one pixel (3 bytes)
/// before the first byte filtered.
#[inline(always)]
fn paeth_bytes(prev: &[u8], cur: &[u8], out: &mut [u8]) {
    const BPP: usize = 3;
    let lanes = out
        .iter_mut()
        .zip(&cur[BPP..])
        .zip(cur)
        .zip(&prev[BPP..])
        .zip(prev);
    for ((((o, &x), &a), &b), &c) in lanes {
        let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
        let pa = (ib - ic).abs();
        let pb = (ia - ic).abs();
        let pc = (ia + ib - 2 * ic).abs();
        let predictor = if pa <= pb && pa <= pc {
            a
        } else if pb <= pc {
            b
        } else {
            c
        };
        *o = x.wrapping_sub(predictor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels of a PNG whose IDAT is `zlib`.
    fn decoded(width: u32, height: u32, zlib: &[u8]) -> Vec<u8> {
        let mut file = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut file, width, height);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut w = enc.write_header().unwrap();
            w.write_chunk(png::chunk::IDAT, zlib).unwrap();
            w.finish().unwrap();
        }
        let mut reader = png::Decoder::new(std::io::Cursor::new(file))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        buf
    }

    /// The IDAT's data of the png crate's own file for `data` with the same settings.
    fn png_crates_idat(w: u32, h: u32, data: &[u8]) -> Vec<u8> {
        let mut theirs = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut theirs, w, h);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_compression(png::Compression::Fast);
            enc.set_filter(png::Filter::Paeth);
            let mut wr = enc.write_header().unwrap();
            wr.write_image_data(data).unwrap();
            wr.finish().unwrap();
        }
        // IHDR ends at byte 33; the IDAT's data follows its length and type.
        let len = u32::from_be_bytes(theirs[33..37].try_into().unwrap()) as usize;
        assert_eq!(&theirs[37..41], b"IDAT");
        theirs[41..41 + len].to_vec()
    }

    // Each row is the one above with a few bytes changed: most sixteen-byte blocks repeat the
    // row above (their zeros' shortcut), others differ in their first bytes, their last, or
    // only in the pixel before them, at every offset. The stream must still be the png
    // crate's, byte for byte.
    #[test]
    fn blocks_that_repeat_the_row_above_filter_as_paeth_does() {
        for w in [1u32, 5, 6, 7, 11, 61, 64] {
            let h = 40u32;
            let stride = (w * 3) as usize;
            let mut rng = fastrand::Rng::with_seed(u64::from(w));
            let mut data: Vec<u8> = (0..stride).map(|_| rng.u8(..)).collect();
            for _ in 1..h {
                let mut row = data[data.len() - stride..].to_vec();
                for _ in 0..rng.usize(0..4) {
                    row[rng.usize(..stride)] = rng.u8(..);
                }
                data.extend_from_slice(&row);
            }
            let mut rows = PngRows::new(w, h).unwrap();
            rows.push(&data).unwrap();
            let zlib = rows.finish().unwrap();
            assert_eq!(decoded(w, h, &zlib), data, "{w} px wide");
            assert_eq!(png_crates_idat(w, h, &data), zlib, "{w} px wide");
        }
    }

    // Rows handed over in uneven bands decode to the picture, whatever the predictor picks
    // (noise exercises every branch of Paeth's, flat runs fdeflate's runs), and the stream is
    // byte for byte the png crate's own for the same settings; too few rows, a part of a row
    // or too many are refused.
    #[test]
    fn rows_given_band_by_band_make_the_picture_and_are_checked() {
        let (w, h) = (37u32, 29u32);
        let mut rng = fastrand::Rng::with_seed(7);
        let data: Vec<u8> = (0..w * h * 3)
            .map(|i| if (i / 300) % 2 == 0 { rng.u8(..) } else { 200 })
            .collect();
        let stride = (w * 3) as usize;
        // Some rows repeat the one above (the flat runs cover whole rows): the zero rows'
        // shortcut is taken and must give Paeth's own bytes.
        let repeats = data
            .chunks_exact(stride)
            .zip(data.chunks_exact(stride).skip(1))
            .filter(|(above, row)| above == row)
            .count();
        assert!(repeats >= 2, "{repeats} repeated rows");
        let mut rows = PngRows::new(w, h).unwrap();
        for band in [
            &data[..stride * 5],
            &data[stride * 5..stride * 6],
            &data[stride * 6..],
        ] {
            rows.push(band).unwrap();
        }
        let zlib = rows.finish().unwrap();
        assert_eq!(decoded(w, h, &zlib), data);

        assert_eq!(png_crates_idat(w, h, &data), zlib);

        let short = PngRows::new(w, h).and_then(|mut r| {
            r.push(&data[..stride * 3])?;
            r.finish()
        });
        assert!(short.is_err());
        assert!(
            PngRows::new(w, h)
                .unwrap()
                .push(&data[..stride + 1])
                .is_err()
        );
        let more = [data.as_slice(), &data[..stride]].concat();
        assert!(PngRows::new(w, h).unwrap().push(&more).is_err());
        assert!(PngRows::new(0, h).is_err() && PngRows::new(w, 0).is_err());
    }
}
