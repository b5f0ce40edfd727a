// The first and last publication year of the graph's full papers, from the yearly counts aggregates/refresh keeps
// (PaperYear): what the graph can speak for, which a current-world answer states when the news cannot be searched.
MATCH (y:PaperYear)
WHERE y.papers > 0
RETURN min(y.year) AS firstYear, max(y.year) AS lastYear
