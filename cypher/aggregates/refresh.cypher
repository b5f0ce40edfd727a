// Recounts the stored aggregates that a write to `$papers` may have changed. Idempotent: every value is counted
// afresh, never incremented, so a re-ingest, a stub becoming a full paper or a removal leaves them right.
// - p.internalCitedBy (citations from full papers) of the given papers and of every paper they cite now; the caller
//   adds the papers they cited before the write (aggregates/affected-before).
// - Per person over full papers — records sharing an ORCID are one person, keyed `a.person` — on every record of
//   the person: personPapers, personInternal, personGlobal (sums of internal and global citations) and
//   personRecord, the smallest record id, which stands for the person in lists. The persons recounted are the
//   signers of every paper recounted and `$people` (signers before the write).
// - Per venue over its full papers: venuePapers, venueGlobal, venueInternal, venueFirstYear, venueLastYear, for the
//   venues of every paper recounted and `$venues` (venues before the write).
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
  RETURN collect([(a:Author)-[:AUTHORED]->(p) | coalesce('orcid:' + a.orcid, a.id)]) AS signerLists,
         collect([(p)-[:PUBLISHED_IN]->(v:Venue) | v.id]) AS venueLists
}
// The venues of every paper recounted and those the written papers were in before: their totals sum what changed.
CALL (venueLists) {
  UNWIND reduce(all = $venues, ids IN venueLists | all + ids) AS venueId
  WITH DISTINCT venueId
  MATCH (v:Venue {id: venueId})
  // include: fragments/venue-totals
  RETURN count(v) AS venues
}
UNWIND reduce(all = $people, ids IN signerLists | all + ids) AS person
WITH DISTINCT person
CALL (person) {
  // include: fragments/person-totals
  RETURN records
}
RETURN count(person) AS people, sum(records) AS records
