//! Levels: the hint-follower, the person-like player and grading. (To be built.)
