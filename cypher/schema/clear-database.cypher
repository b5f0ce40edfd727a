// Empties the database in batches (tests and `citegraph db reset`); schema is kept.
MATCH (n)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
