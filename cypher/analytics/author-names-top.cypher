// What analytics/author-names gives with no filter, bounded: the $limit most productive identified people of the
// whole graph (the record that stands for each, :Person, read from the top of its index on the stored totals) — the
// candidates for possible duplicates without reading every authorship. Anonymous records are never candidates.
MATCH (a:Person)
WHERE a.personPapers > 0 AND coalesce(a.anonymous, false) = false AND a.name IS NOT NULL
WITH a ORDER BY a.personPapers DESC
LIMIT $limit
RETURN a.id AS id, a.name AS name, a.orcid AS orcid, a.personPapers AS papers
