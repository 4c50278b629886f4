//! Pure chess rules for Cajitas: no I/O, no async, no Discord, no database.
