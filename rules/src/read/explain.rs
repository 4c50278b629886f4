//! Why a reading matches no legal move: the most precise reason the position can give.

use super::error::{CastleProblem, IllegalReason};
use super::text::{Pattern, Reading};
use crate::{
    Bitboard, CastlingMode, CastlingSide, Color, File, Move, Piece, Position, Rank, Role, Square,
    attacks,
};

pub(super) fn explain(pos: &Position, legal: &[Move], reading: &Reading) -> IllegalReason {
    if legal.is_empty() {
        return IllegalReason::NoLegalMoves;
    }
    match reading {
        Reading::Castle(side) => castle(pos, *side),
        Reading::Move(p) => explain_move(pos, legal, p),
    }
}

fn castle(pos: &Position, side: CastlingSide) -> IllegalReason {
    match castle_problem(pos, side) {
        Some(problem) => IllegalReason::Castle { side, problem },
        None => IllegalReason::NotLegal,
    }
}

fn king_home(color: Color) -> Square {
    Square::from_coords(File::E, Rank::First.relative_to(color))
}

fn castle_problem(pos: &Position, side: CastlingSide) -> Option<CastleProblem> {
    if pos.castling_mode() == CastlingMode::Chess960 {
        return castle_problem_960(pos, side);
    }
    let us = pos.turn();
    let board = pos.board();
    let king = king_home(us);
    if board.piece_at(king)
        != Some(Piece {
            color: us,
            role: Role::King,
        })
    {
        return Some(CastleProblem::KingMoved);
    }
    let rook = side.rook_from(us);
    if !pos.has_castling_right(us, side) {
        let rook_home = board.piece_at(rook)
            == Some(Piece {
                color: us,
                role: Role::Rook,
            });
        let other = match side {
            CastlingSide::KingSide => CastlingSide::QueenSide,
            CastlingSide::QueenSide => CastlingSide::KingSide,
        };
        return Some(if rook_home && !pos.has_castling_right(us, other) {
            CastleProblem::KingMoved
        } else {
            CastleProblem::RookMoved
        });
    }
    if (attacks::between(king, rook) & board.occupied()).any() {
        return Some(CastleProblem::PiecesInTheWay);
    }
    if pos.is_check() {
        return Some(CastleProblem::OutOfCheck);
    }
    let occupied = board.occupied() ^ Bitboard::from(king);
    let passed = side.rook_to(us);
    if pos.attackers_to(passed, !us, occupied).any() {
        return Some(CastleProblem::ThroughAttackedSquare);
    }
    if pos.attackers_to(side.king_to(us), !us, occupied).any() {
        return Some(CastleProblem::IntoCheck);
    }
    None
}

/// Chess960: the same questions with the king and the rook where they stand.
fn castle_problem_960(pos: &Position, side: CastlingSide) -> Option<CastleProblem> {
    let us = pos.turn();
    let board = pos.board();
    let Some(rook) = pos.castling_rook(us, side) else {
        let other = match side {
            CastlingSide::KingSide => CastlingSide::QueenSide,
            CastlingSide::QueenSide => CastlingSide::KingSide,
        };
        return Some(if pos.has_castling_right(us, other) {
            CastleProblem::RookMoved
        } else {
            CastleProblem::KingMoved
        });
    };
    let king = board.king_of(us)?;
    let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
    let in_the_way =
        (attacks::between(king, king_to) | attacks::between(rook, rook_to) | king_to | rook_to)
            - king
            - rook;
    if (in_the_way & board.occupied()).any() {
        return Some(CastleProblem::PiecesInTheWay);
    }
    if pos.is_check() {
        return Some(CastleProblem::OutOfCheck);
    }
    let occupied = board.occupied() ^ king ^ rook;
    if attacks::between(king, king_to)
        .into_iter()
        .any(|sq| pos.attackers_to(sq, !us, occupied).any())
    {
        return Some(CastleProblem::ThroughAttackedSquare);
    }
    if pos.attackers_to(king_to, !us, occupied).any() {
        return Some(CastleProblem::IntoCheck);
    }
    None
}

/// The castling side a king move typed as coordinates stands for (`e1g1`, `e1h1`, ...); in
/// Chess960, the king onto its own rook, or two files or more towards g or c.
fn coordinate_castle(pos: &Position, from: Square, to: Square) -> Option<CastlingSide> {
    let us = pos.turn();
    if pos.castling_mode() == CastlingMode::Chess960 {
        if from.rank() != Rank::First.relative_to(us) || to.rank() != from.rank() {
            return None;
        }
        let own_rook = pos.board().piece_at(to)
            == Some(Piece {
                color: us,
                role: Role::Rook,
            });
        let far = from.distance(to) >= 2 && matches!(to.file(), File::G | File::C);
        if !(own_rook || far) {
            return None;
        }
        return Some(if to > from {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        });
    }
    if from != king_home(us) || to.rank() != from.rank() {
        return None;
    }
    match to.file() {
        File::G | File::H => Some(CastlingSide::KingSide),
        File::C | File::A => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Whether a piece of `role` on `from` could move to `to` if its own king did not matter
/// (a piece of its own side on `to` counts as reachable, so that can be said).
fn reaches(pos: &Position, role: Role, from: Square, to: Square) -> bool {
    let board = pos.board();
    let occupied = board.occupied();
    let us = pos.turn();
    match role {
        Role::Pawn => {
            let step = if us == Color::White { 8 } else { -8 };
            if attacks::pawn(us, from).contains(to) {
                return occupied.contains(to) || pos.ep_square() == Some(to);
            }
            let Some(one) = from.offset(step) else {
                return false;
            };
            if occupied.contains(one) {
                return false;
            }
            if one == to {
                return true;
            }
            from.rank() == Rank::Second.relative_to(us)
                && one.offset(step) == Some(to)
                && !occupied.contains(to)
        }
        Role::Knight => attacks::knight(from).contains(to),
        Role::Bishop => attacks::bishop(from, occupied).contains(to),
        Role::Rook => attacks::rook(from, occupied).contains(to),
        Role::Queen => attacks::queen(from, occupied).contains(to),
        Role::King => attacks::king(from).contains(to),
    }
}

fn explain_move(pos: &Position, legal: &[Move], p: &Pattern) -> IllegalReason {
    if let Some(role @ (Role::King | Role::Pawn)) = p.promotion {
        return IllegalReason::CannotPromoteTo { role };
    }
    let us = pos.turn();
    let board = pos.board();
    // Chess960: the king named onto its own rook (`Kh1`) is a castling attempt.
    if pos.castling_mode() == CastlingMode::Chess960
        && p.role == Some(Role::King)
        && let Some(king) = board.king_of(us)
        && p.from().is_none_or(|from| from == king)
        && let Some(side) = coordinate_castle(pos, king, p.to)
        && board.piece_at(p.to)
            == Some(Piece {
                color: us,
                role: Role::Rook,
            })
    {
        return castle(pos, side);
    }
    let role = match p.from() {
        Some(from) => match board.piece_at(from) {
            None => return IllegalReason::EmptySquare { square: from },
            Some(piece) if piece.color != us => {
                return IllegalReason::NotYourPiece {
                    square: from,
                    role: piece.role,
                };
            }
            Some(piece) => {
                if let Some(named) = p.role.filter(|&r| r != piece.role) {
                    return IllegalReason::WrongPiece {
                        square: from,
                        found: piece.role,
                        named,
                    };
                }
                if p.role.is_none()
                    && piece.role == Role::King
                    && let Some(side) = coordinate_castle(pos, from, p.to)
                {
                    return castle(pos, side);
                }
                piece.role
            }
        },
        None => p.role.unwrap_or(Role::Pawn),
    };
    let ours = board.by_color(us) & board.by_role(role);
    if ours.is_empty() {
        return IllegalReason::NoSuchPiece { role };
    }
    // Without a file, a pawn only goes straight ahead (a capture names its file).
    let straight_only = role == Role::Pawn && p.from_file.is_none();
    let reachers: Vec<Square> = ours
        .into_iter()
        .filter(|s| p.from_file.is_none_or(|f| s.file() == f))
        .filter(|s| p.from_rank.is_none_or(|r| s.rank() == r))
        .filter(|s| !straight_only || s.file() == p.to.file())
        .filter(|&s| reaches(pos, role, s, p.to))
        .collect();
    if reachers.is_empty() {
        if straight_only
            && legal.iter().any(|&m| {
                m.to() == p.to
                    && super::is_capture_without_file(p, m)
                    && p.from_rank.is_none_or(|r| m.from().rank() == r)
            })
        {
            return IllegalReason::PawnCaptureWithoutFile { to: p.to };
        }
        return IllegalReason::CannotReach {
            role,
            from_file: p.from_file,
            from_rank: p.from_rank,
            to: p.to,
        };
    }
    if let Some(piece) = board.piece_at(p.to).filter(|piece| piece.color == us) {
        return IllegalReason::OwnPieceThere {
            square: p.to,
            role: piece.role,
        };
    }
    if p.promotion.is_some() && (role != Role::Pawn || p.to.rank() != Rank::Eighth.relative_to(us))
    {
        return IllegalReason::NotAPromotion;
    }
    if role == Role::King {
        return IllegalReason::KingWouldBeInCheck;
    }
    if pos.is_check() {
        return IllegalReason::InCheck;
    }
    let pinned = pos.pinned();
    if reachers.iter().all(|&s| pinned.contains(s)) {
        return IllegalReason::Pinned {
            role,
            square: reachers[0],
        };
    }
    IllegalReason::KingWouldBeInCheck
}
