// Labels stubs with what a lookup found: title, year and DOI where the stub has none and no other paper has the DOI (a stub stays a stub: it joins
// no collection and gets no authors, chunks or references). `labelledAt` marks it as looked up, found or not, so the
// next run takes the next ones; `labelSource` says from where.
UNWIND $rows AS row
MATCH (s:Paper {id: row.id})
WHERE s.stub = true
SET s.title = coalesce(s.title, row.title),
    s.year = coalesce(s.year, row.year),
    // A DOI another paper holds stays with that paper: the stub is the same work under a second id.
    s.doi = CASE WHEN EXISTS { MATCH (other:Paper {doi: row.doi}) WHERE other <> s } THEN s.doi ELSE coalesce(s.doi, row.doi) END,
    s.labelledAt = $at,
    s.labelSource = row.source
RETURN count(s) AS labelled
