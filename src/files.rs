//! Reading and writing files a user or an attacker may have chosen: reads that stop at a size
//! limit whatever the file is (a FIFO, `/dev/zero`, a file that grows), and writes that
//! replace a path instead of following a symlink planted there.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

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

/// Writes `bytes` to `path` by writing a new file in the same folder and renaming it over
/// `path`. A symlink (or any file) already at `path` is replaced, never written through, and
/// a reader never sees a half-written file. The temporary file is created exclusively
/// (`O_EXCL`), so a symlink planted under its name is not followed either.
pub fn write_replacing(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let mut tries = 0;
    let (tmp, mut file) = loop {
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(
            ".{}-{:016x}.tmp",
            std::process::id(),
            fastrand::u64(..)
        ));
        let tmp = dir.join(tmp_name);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
            Err(e) => return Err(e),
        }
    };
    let written = file.write_all(bytes).and_then(|()| {
        drop(file);
        std::fs::rename(&tmp, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
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

    #[cfg(unix)]
    #[test]
    fn write_replacing_replaces_a_symlink_instead_of_following_it() {
        let dir = std::env::temp_dir().join(format!(
            "cajitas-files-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        let path = dir.join("board.png");
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        write_replacing(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
