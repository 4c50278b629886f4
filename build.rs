//! Lists the migrations for the store: every numbered file of `migrations/` (SQLite) and of
//! `migrations/postgres/` (its PostgreSQL twin, with the same number), embedded in order.
//! A new migration is its two files, and nothing else to register. The build fails when the
//! numbers do not run 1, 2, 3, … or a file has no twin.

use std::path::{Path, PathBuf};

fn numbered(dir: &Path) -> Vec<(u32, PathBuf)> {
    let mut files: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let number = name
                .split('_')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("migration {name} does not begin with its number"));
            (number, path)
        })
        .collect();
    files.sort();
    for (i, (number, path)) in files.iter().enumerate() {
        assert_eq!(
            *number as usize,
            i + 1,
            "migrations must be numbered 1, 2, 3, …: {}",
            path.display()
        );
    }
    files
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let sqlite = numbered(&root.join("migrations"));
    let postgres = numbered(&root.join("migrations/postgres"));
    assert_eq!(
        sqlite.len(),
        postgres.len(),
        "every migration has a SQLite file and a PostgreSQL twin with the same number"
    );
    let mut out = String::from("/// SQLite's migrations (`migrations/`), in order.\n");
    out.push_str("pub const SQLITE: &[&str] = &[\n");
    for (_, path) in &sqlite {
        out.push_str(&format!(
            "    include_str!({:?}),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n\n/// PostgreSQL's (`migrations/postgres/`): (version, SQL), in order.\n");
    out.push_str("pub const POSTGRES: &[(i32, &str)] = &[\n");
    for (number, path) in &postgres {
        out.push_str(&format!(
            "    ({number}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("migrations.rs");
    // A new file, not the old one rewritten: a target directory hard-linked from another
    // checkout's (a second worktree's first build) must not write its list into both.
    let _ = std::fs::remove_file(&dest);
    std::fs::write(dest, out).expect("cannot write the migrations' list");
    println!("cargo::rerun-if-changed=migrations");
    println!("cargo::rerun-if-changed=build.rs");
}
