// Deletes the yearly counts (TopicYear, PaperYear, PaperTotals) before aggregates/refresh-all-years recounts them.
MATCH (c:TopicYear|PaperYear|PaperTotals)
CALL (c) {
  DELETE c
} IN TRANSACTIONS OF 10000 ROWS
RETURN count(c) AS deleted
