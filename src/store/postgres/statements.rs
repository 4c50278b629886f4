//! How a statement of `store::records` runs on PostgreSQL: its parameters bound to the types
//! the server inferred for its placeholders, its rows read by type, and the advisory locks
//! the record files ask for.

use postgres::types::{ToSql, Type};
use postgres::{Row, Statement};

use super::{PgTx, locks};
use crate::store::StoreError;
use crate::store::sql::{Backend, Cells, Dialect, Params, Value, wrong_cell};

/// A parameter bound as the type the server inferred for its placeholder.
enum Bound<'a> {
    I16(Option<i16>),
    I32(Option<i32>),
    I64(Option<i64>),
    F32(Option<f32>),
    F64(Option<f64>),
    Bool(Option<bool>),
    Text(Option<&'a str>),
}

impl Bound<'_> {
    fn as_sql(&self) -> &(dyn ToSql + Sync) {
        match self {
            Bound::I16(v) => v,
            Bound::I32(v) => v,
            Bound::I64(v) => v,
            Bound::F32(v) => v,
            Bound::F64(v) => v,
            Bound::Bool(v) => v,
            Bound::Text(v) => v,
        }
    }
}

/// `v` as a parameter of type `ty`: an integer binds to `SMALLINT`, `INTEGER` or `BIGINT`,
/// saturated to the type's range (a ply beyond `INTEGER`, such as a caller's "any ply"
/// sentinel, then matches no row, as it matches none in SQLite); a NULL takes the type.
fn bind<'a>(v: Value<'a>, ty: &Type) -> Result<Bound<'a>, StoreError> {
    let refuse = |v: Value<'_>| StoreError::Backend(format!("cannot bind {v:?} as {ty}"));
    let int = |v: Value<'_>| match v {
        Value::Null => Ok(None),
        Value::Int(i) => Ok(Some(i)),
        other => Err(refuse(other)),
    };
    let clamp = |i: i64, min: i64, max: i64| i.clamp(min, max);
    Ok(match *ty {
        Type::INT2 => {
            Bound::I16(int(v)?.map(|i| clamp(i, i16::MIN.into(), i16::MAX.into()) as i16))
        }
        Type::INT4 => {
            Bound::I32(int(v)?.map(|i| clamp(i, i32::MIN.into(), i32::MAX.into()) as i32))
        }
        Type::INT8 => Bound::I64(int(v)?),
        Type::FLOAT8 => Bound::F64(match v {
            Value::Null => None,
            Value::Real(x) => Some(x),
            Value::Int(i) => Some(i as f64),
            other => return Err(refuse(other)),
        }),
        Type::FLOAT4 => Bound::F32(match v {
            Value::Null => None,
            Value::Real(x) => Some(x as f32),
            other => return Err(refuse(other)),
        }),
        Type::BOOL => Bound::Bool(match v {
            Value::Null => None,
            Value::Bool(b) => Some(b),
            other => return Err(refuse(other)),
        }),
        _ => Bound::Text(match v {
            Value::Null => None,
            Value::Text(s) => Some(s),
            other => return Err(refuse(other)),
        }),
    })
}

impl PgTx<'_> {
    /// `sql`'s statement with `params` bound to the types of its placeholders.
    fn bound<'p>(
        &self,
        sql: &'static str,
        params: &'p Params<'_>,
    ) -> Result<(Statement, Vec<Bound<'p>>), StoreError> {
        let s = self.stmt(sql)?;
        if s.params().len() != params.len() {
            return Err(StoreError::Backend(format!(
                "{} parameters for {} placeholders: {sql}",
                params.len(),
                s.params().len()
            )));
        }
        let bound = params
            .iter()
            .zip(s.params())
            .map(|(p, ty)| bind(p.value(), ty))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((s, bound))
    }
}

impl Cells for Row {
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        let ty = self.columns().get(i).map(|c| c.type_().clone());
        Ok(match ty {
            Some(Type::INT2) => self.try_get::<_, Option<i16>>(i)?.map(i64::from),
            Some(Type::INT4) => self.try_get::<_, Option<i32>>(i)?.map(i64::from),
            Some(Type::INT8) => self.try_get::<_, Option<i64>>(i)?,
            _ => return Err(wrong_cell(i, "an integer")),
        })
    }

    fn real(&self, i: usize) -> Result<Option<f64>, StoreError> {
        let ty = self.columns().get(i).map(|c| c.type_().clone());
        Ok(match ty {
            Some(Type::FLOAT8) => self.try_get::<_, Option<f64>>(i)?,
            Some(Type::FLOAT4) => self.try_get::<_, Option<f32>>(i)?.map(f64::from),
            Some(Type::INT8 | Type::INT4 | Type::INT2) => self.int(i)?.map(|v| v as f64),
            _ => return Err(wrong_cell(i, "a number")),
        })
    }

    fn text(&self, i: usize) -> Result<Option<&str>, StoreError> {
        Ok(self.try_get::<_, Option<&str>>(i)?)
    }

    fn bool(&self, i: usize) -> Result<Option<bool>, StoreError> {
        let ty = self.columns().get(i).map(|c| c.type_().clone());
        Ok(match ty {
            Some(Type::BOOL) => self.try_get::<_, Option<bool>>(i)?,
            Some(Type::INT8 | Type::INT4 | Type::INT2) => self.int(i)?.map(|v| v != 0),
            _ => return Err(wrong_cell(i, "a boolean")),
        })
    }
}

impl Backend for PgTx<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn each(
        &self,
        sql: &'static str,
        params: &Params<'_>,
        each: &mut dyn FnMut(&dyn Cells) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let (s, bound) = self.bound(sql, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = bound.iter().map(Bound::as_sql).collect();
        let rows = self.tx.borrow_mut().query(&s, &refs)?;
        for row in &rows {
            each(row)?;
        }
        Ok(())
    }

    fn exec(&self, sql: &'static str, params: &Params<'_>) -> Result<u64, StoreError> {
        let (s, bound) = self.bound(sql, params)?;
        let refs: Vec<&(dyn ToSql + Sync)> = bound.iter().map(Bound::as_sql).collect();
        Ok(self.tx.borrow_mut().execute(&s, &refs)?)
    }

    fn locks_channels(&self) -> bool {
        self.write
    }

    fn lock_channel(&self, channel: i64) -> Result<(), StoreError> {
        PgTx::lock_channel(self, channel)
    }

    fn lock_place(&self, place: i64) -> Result<(), StoreError> {
        PgTx::lock_place(self, place)
    }

    fn try_lock_channel(&self, channel: i64) -> Result<bool, StoreError> {
        if !self.write {
            return Ok(true);
        }
        Ok(self
            .query_one("SELECT pg_try_advisory_xact_lock($1)", &[&channel])?
            .try_get(0)?)
    }

    fn lock_players(&self, players: &[(i64, crate::vocab::Speed, u64)]) -> Result<(), StoreError> {
        // A rebuild holds every rating at once ([`locks::RATINGS`]): nothing more to take.
        if players.is_empty() || self.ratings_locked.get() {
            return Ok(());
        }
        // Every transaction takes the shared lock of all ratings first (a rebuild takes it
        // exclusively), then its players' locks in the order of their keys: two transactions
        // never each hold a lock the other waits for. The NULL ahead of the keys stands for
        // the shared lock; `unnest` yields the array in its order, one lock per row.
        // Each player's pool and speed adds its leaderboard's lock ([`locks::cells_key`]): the
        // rating writes of a pool and speed update its shared cells (migration 0018), whose
        // row locks, taken by the trigger in whatever order the writes come, would otherwise
        // be waited for in a cycle by two transactions, and whose counts the trigger tests
        // before it decrements them.
        let mut keys: Vec<Option<i32>> = players
            .iter()
            .flat_map(|&(pool, speed, user)| {
                [
                    Some(locks::rating_key(pool, speed.as_str(), user)),
                    Some(locks::cells_key(pool, speed.as_str())),
                ]
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.insert(0, None);
        self.execute(
            "SELECT CASE WHEN k IS NULL THEN pg_advisory_xact_lock_shared($1, $2)
                         ELSE pg_advisory_xact_lock($3, k) END
             FROM unnest($4::int4[]) AS k",
            &[&locks::CLASS, &locks::RATINGS, &locks::RATINGS_CLASS, &keys],
        )?;
        Ok(())
    }

    fn lock_all_ratings(&self) -> Result<(), StoreError> {
        self.execute(
            "SELECT pg_advisory_xact_lock($1, $2)",
            &[&locks::CLASS, &locks::RATINGS],
        )?;
        self.ratings_locked.set(true);
        Ok(())
    }

    fn lock_pings(&self, from: i64, to: i64) -> Result<(), StoreError> {
        // Count and insert as one step per pair, whatever the channel: two processes counting
        // the same pair at once would otherwise both see room for one more.
        self.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2::bigint::text || '>' || $3::bigint::text))",
            &[&locks::PINGS_CLASS, &from, &to],
        )?;
        Ok(())
    }
}
