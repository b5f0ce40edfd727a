// What read/papers-count gives with no filter, from the count of full papers every write keeps (PaperTotals, see
// aggregates/refresh) instead of counting every paper.
OPTIONAL MATCH (c:PaperTotals {id: 'full'})
RETURN coalesce(c.papers, 0) AS total
