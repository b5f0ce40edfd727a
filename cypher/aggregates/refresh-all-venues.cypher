// Recounts the totals of every venue (see aggregates/refresh), in transactions of its own; after
// aggregates/refresh-all-papers (the internal citation counts it sums).
MATCH (v:Venue)
CALL (v) {
  // include: fragments/venue-totals
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(v) AS venues
