//! interaction
pub mod budget;
pub mod call;
pub mod custom_id;
pub mod errors;
pub mod gate;
pub mod langs;
pub mod reply;
pub mod router;
