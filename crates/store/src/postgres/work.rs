//! Grading shared by several workers through the database.
