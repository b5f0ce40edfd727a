// Recounts the yearly counts of every topic from scratch (see aggregates/refresh), in transactions of its own; after
// aggregates/clear-years. The per-year and whole-graph totals come from aggregates/refresh-all-paper-years.
MATCH (t:Topic)
CALL (t) {
  MATCH (t)<-[r:HAS_TOPIC]-(p:Paper {stub: false})
  WHERE p.year IS NOT NULL
  WITH p.year AS year, count(DISTINCT p) AS papers, count(DISTINCT CASE WHEN r.score >= $strongScore THEN p END) AS strong
  CREATE (:TopicYear {topic: t.id, year: year, papers: papers, strong: strong})
} IN TRANSACTIONS OF 500 ROWS
RETURN count(t) AS topics
