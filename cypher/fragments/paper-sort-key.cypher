// The key of the one paper sort, over a paper bound to `p`: null for every paper when $sort is null, so a query's
// own order (the keys after it) decides. RELEVANCE reads the filter's text scores.
CASE $sort
  WHEN 'ID' THEN p.id
  WHEN 'YEAR' THEN p.year
  WHEN 'CITATIONS' THEN p.citedByCount
  WHEN 'INTERNAL_CITATIONS' THEN p.internalCitedBy
  WHEN 'TITLE' THEN toLower(p.title)
  WHEN 'RELEVANCE' THEN $textScores[p.id]
END
