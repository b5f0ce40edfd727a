// Recounts the internal citation count of every paper (see aggregates/refresh), in transactions of its own: for a
// store written before the stored aggregates existed, and `citegraph db recount`.
MATCH (p:Paper)
CALL (p) {
  SET p.internalCitedBy = COUNT { (p)<-[:CITES]-(:Paper {stub: false}) }
} IN TRANSACTIONS OF 5000 ROWS
RETURN count(p) AS papers
