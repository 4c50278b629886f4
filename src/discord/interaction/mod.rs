//! interaction
pub mod budget;
pub mod custom_id;
pub mod errors;
pub mod gate;
pub mod reply;
pub mod router;
