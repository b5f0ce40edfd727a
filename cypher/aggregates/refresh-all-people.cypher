// Recounts the totals of every person (see aggregates/refresh), in transactions of its own; after
// aggregates/refresh-all-papers.
MATCH (author:Author)
WITH DISTINCT coalesce('orcid:' + author.orcid, author.id) AS person
CALL (person) {
  // include: fragments/person-totals
  RETURN records
} IN TRANSACTIONS OF 2000 ROWS
RETURN count(person) AS people, sum(records) AS records
