//! Answering one interaction: the `Call` preamble of every command, the button ids and the
//! router, the languages, replies and their retries, errors as replies, the gate, and the REST
//! budget. Only `router.rs` names the commands (a click goes to the family that made its
//! button).

pub mod after;
pub mod budget;
pub mod call;
pub mod custom_id;
pub mod errors;
pub mod gate;
pub mod langs;
pub mod reply;
pub mod router;
