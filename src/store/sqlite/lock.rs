//! One bot process per SQLite file: `cajitas run` holds an exclusive lock on a file beside the
//! database (`<db>.run-lock`) for as long as it runs. The operating system releases it when
//! the process ends, however it ends, so a killed bot never leaves a stale lock behind.
//! `cajitas local` and the tools do not take it: they may open the file beside a running bot.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// The lock of the one bot process of a SQLite file; released when dropped.
#[derive(Debug)]
pub struct ProcessLock {
    _file: File,
    path: PathBuf,
}

impl ProcessLock {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Why the lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum ProcessLockError {
    /// Another process holds it.
    #[error(
        "another `cajitas run` is already using the database {db} (it holds {lock}). With SQLite, \
         one bot process per database file: stop the other one, or run several shards in one \
         process with CAJITAS_SHARDS, or move to PostgreSQL (CAJITAS_DB=postgres://…, see \
         `cajitas migrate`) to run several bot processes."
    )]
    Held {
        /// The database file.
        db: String,
        /// The lock file.
        lock: String,
    },
    /// The lock file could not be opened or locked.
    #[error("cannot lock {lock}: {source}")]
    Io {
        /// The lock file.
        lock: String,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Takes the bot's lock on the database file `db`, without waiting.
pub fn lock_for_one_process(db: &Path) -> Result<ProcessLock, ProcessLockError> {
    let mut name = db.as_os_str().to_owned();
    name.push(".run-lock");
    let path = PathBuf::from(name);
    let io = |source| ProcessLockError::Io {
        lock: path.display().to_string(),
        source,
    };
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io)?;
    match file.try_lock() {
        Ok(()) => Ok(ProcessLock { _file: file, path }),
        Err(TryLockError::WouldBlock) => Err(ProcessLockError::Held {
            db: db.display().to_string(),
            lock: path.display().to_string(),
        }),
        Err(TryLockError::Error(e)) => Err(io(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_file_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("cajitas-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("x.db");
        let first = lock_for_one_process(&db).unwrap();
        let e = lock_for_one_process(&db).unwrap_err();
        assert!(matches!(e, ProcessLockError::Held { .. }), "{e}");
        assert!(e.to_string().contains("CAJITAS_SHARDS"));
        drop(first);
        lock_for_one_process(&db).unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }
}
