//! The terminal's two guards: a writer that escapes control characters, and a line reader
//! that never holds more than its cap.

use std::io::{self, BufRead, Write};

/// A writer that shows every control character except `\n` as `\u{..}` (its code point in
/// hexadecimal: ESC is `\u{1b}`, BEL `\u{7}`, the C1 CSI `\u{9b}`) and passes everything else
/// through. Bytes that are not UTF-8 are shown as U+FFFD. A backslash is written as is, so
/// the output is for reading, not for parsing back.
pub struct EscapeControls<W> {
    inner: W,
    /// The start of a UTF-8 sequence cut by the end of the last write (at most 3 bytes).
    pending: Vec<u8>,
}

impl<W: Write> EscapeControls<W> {
    /// The writer inside (what was written so far, for a `Vec<u8>`).
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// Wraps `inner`.
    pub fn new(inner: W) -> EscapeControls<W> {
        EscapeControls {
            inner,
            pending: Vec::new(),
        }
    }

    fn write_text(&mut self, text: &str) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in text.char_indices() {
            if c.is_control() && c != '\n' {
                self.inner.write_all(&text.as_bytes()[start..i])?;
                write!(self.inner, "\\u{{{:x}}}", u32::from(c))?;
                start = i + c.len_utf8();
            }
        }
        self.inner.write_all(&text.as_bytes()[start..])
    }
}

impl<W: Write> Write for EscapeControls<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(buf);
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    self.write_text(text)?;
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    // `valid` is UTF-8 by the error's own account.
                    self.write_text(std::str::from_utf8(valid).unwrap_or_default())?;
                    match e.error_len() {
                        Some(n) => {
                            self.write_text("\u{fffd}")?;
                            rest = &after[n..];
                        }
                        None => {
                            // A character cut in two: keep its start for the next write.
                            self.pending = after.to_vec();
                            break;
                        }
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What [`LineReader::next_line`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead<'a> {
    /// A line, without its `\n` or `\r\n`.
    Line(&'a [u8]),
    /// A line longer than the cap: it was read to its end and thrown away.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads lines holding at most `cap` bytes of any one line: the rest of a longer line is
/// read and dropped as it comes, so a 1 GB line (or `/dev/zero`) keeps memory flat.
pub struct LineReader<R> {
    input: R,
    buf: Vec<u8>,
    cap: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader keeping at most `cap` bytes of a line.
    pub fn new(input: R, cap: usize) -> LineReader<R> {
        LineReader {
            input,
            buf: Vec::with_capacity(cap),
            cap,
        }
    }

    /// The memory held for a line, in bytes: allocated once, never grown.
    pub fn buffer_capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Reads the next line. Only I/O errors are errors.
    pub fn next_line(&mut self) -> io::Result<LineRead<'_>> {
        self.buf.clear();
        let (mut too_long, mut any) = (false, false);
        loop {
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                // End of input, possibly after a last line without a newline.
                return Ok(match (any, too_long) {
                    (false, _) => LineRead::End,
                    (true, true) => LineRead::TooLong,
                    (true, false) => LineRead::Line(&self.buf),
                });
            }
            any = true;
            let newline = avail.iter().position(|&b| b == b'\n');
            let part = &avail[..newline.unwrap_or(avail.len())];
            if !too_long {
                if self.buf.len() + part.len() > self.cap {
                    too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(part);
                }
            }
            let used = newline.map_or(avail.len(), |i| i + 1);
            self.input.consume(used);
            if newline.is_some() {
                if too_long {
                    return Ok(LineRead::TooLong);
                }
                if self.buf.last() == Some(&b'\r') {
                    self.buf.pop();
                }
                return Ok(LineRead::Line(&self.buf));
            }
        }
    }
}
