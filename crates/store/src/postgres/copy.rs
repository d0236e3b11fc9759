//! A SQLite site copied into PostgreSQL.
