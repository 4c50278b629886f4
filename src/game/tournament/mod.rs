//! Tournaments: the pure parts of the round robin (FIDE's Berger tables, the standings and
//! the withdrawal rule).

pub mod berger;
pub mod plan;
pub mod roundrobin;
