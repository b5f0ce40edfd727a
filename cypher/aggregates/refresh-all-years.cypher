// Recounts the yearly counts of every topic from scratch (see aggregates/refresh), in transactions of its own; after
// aggregates/clear-years and aggregates/refresh-all-papers (the internal counts it sums). The per-year and
// whole-graph totals come from aggregates/refresh-all-paper-years.
MATCH (t:Topic)
CALL (t) {
  MATCH (t)<-[r:HAS_TOPIC]-(p:Paper {stub: false})
  WHERE p.year IS NOT NULL
  WITH p, max(r.score) AS score
  WITH p.year AS year, count(p) AS papers, count(CASE WHEN score >= $strongScore THEN p END) AS strong,
       sum(coalesce(p.internalCitedBy, 0)) AS internal
  CREATE (:TopicYear {topic: t.id, year: year, papers: papers, strong: strong, internal: internal})
} IN TRANSACTIONS OF 500 ROWS
RETURN count(t) AS topics
