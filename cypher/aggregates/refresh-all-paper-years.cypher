// Recounts the full papers per year (PaperYear) and in all (PaperTotals) from scratch (see aggregates/refresh); after
// aggregates/clear-years.
MATCH (p:Paper {stub: false})
WITH p.year AS year, count(*) AS papers
WITH collect({year: year, papers: papers}) AS years, sum(papers) AS total
CALL (years) {
  UNWIND years AS row
  WITH row WHERE row.year IS NOT NULL
  CREATE (:PaperYear {year: row.year, papers: row.papers})
  RETURN count(*) AS created
}
MERGE (c:PaperTotals {id: 'full'})
SET c.papers = total
RETURN size(years) AS years, total AS papers
