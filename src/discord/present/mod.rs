//! How games look in Discord: the embed and the board, the challenge message, a game's
//! thread, the posts no interaction caused (`DiscordNotifier`), and who is who.

pub mod notify;
pub mod threads;
pub mod view;
pub mod who;
