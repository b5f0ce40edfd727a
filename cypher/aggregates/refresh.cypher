// Recounts the stored aggregates that a write to `$papers` may have changed. Idempotent: every value is counted
// afresh, never incremented, so a re-ingest, a stub becoming a full paper or a removal leaves them right.
// - p.internalCitedBy (citations from full papers) of the given papers and of every paper they cite now; the caller
//   adds the papers they cited before the write (aggregates/affected-before).
// - Per person over full papers — records sharing an ORCID are one person, keyed `a.person` — on every record of
//   the person: personPapers, personInternal, personGlobal (sums of internal and global citations) and
//   personRecord, the smallest record id, which stands for the person in lists. The persons recounted are the
//   signers of every paper recounted and `$people` (signers before the write).
CALL () {
  UNWIND $papers AS id
  MATCH (p:Paper {id: id})
  OPTIONAL MATCH (p)-[:CITES]->(q:Paper)
  RETURN collect(DISTINCT p) + collect(DISTINCT q) AS candidates
}
CALL (candidates) {
  UNWIND candidates AS p
  WITH DISTINCT p
  SET p.internalCitedBy = COUNT { (p)<-[:CITES]-(:Paper {stub: false}) }
  WITH p
  MATCH (a:Author)-[:AUTHORED]->(p)
  RETURN collect(DISTINCT coalesce('orcid:' + a.orcid, a.id)) AS signers
}
UNWIND signers + $people AS person
WITH DISTINCT person
CALL (person) {
  // include: fragments/person-totals
  RETURN records
}
RETURN count(person) AS people, sum(records) AS records
