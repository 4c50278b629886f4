//! present
pub mod notify;
pub mod threads;
pub mod view;
pub mod who;
