//! Reading files a user or an attacker may have chosen: reads that stop at a size limit
//! whatever the file is (a FIFO, `/dev/zero`, a file that grows).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a capped read failed.
#[derive(Debug, thiserror::Error)]
pub enum CappedReadError {
    /// There was more than the limit to read.
    #[error("it is larger than {}", human_bytes(*limit))]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// Opening or reading failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// `64 MiB`, `1 MiB`, `512 KiB` or `100 bytes`.
fn human_bytes(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// Reads everything from `reader`, but never more than `limit + 1` bytes: with more than
/// `limit` bytes to read the answer is [`CappedReadError::TooLarge`], and memory never grew
/// past the limit. What a file's metadata says is not trusted (a FIFO or a device reports
/// size 0).
pub fn read_capped(reader: impl Read, limit: u64) -> Result<Vec<u8>, CappedReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(CappedReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Opens `path` and reads it with [`read_capped`].
pub fn read_file_capped(path: &Path, limit: u64) -> Result<Vec<u8>, CappedReadError> {
    read_capped(File::open(path)?, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_read_stops_at_the_limit() {
        // An endless reader: the read must stop by itself, with a bounded buffer.
        let err = read_capped(io::repeat(b'x'), 1000).unwrap_err();
        assert!(matches!(err, CappedReadError::TooLarge { limit: 1000 }));
        assert_eq!(err.to_string(), "it is larger than 1000 bytes");
        assert_eq!(read_capped(&b"abc"[..], 3).unwrap(), b"abc");
        assert!(read_capped(&b"abcd"[..], 3).is_err());
        assert_eq!(
            CappedReadError::TooLarge { limit: 64 << 20 }.to_string(),
            "it is larger than 64 MiB"
        );
    }
}
