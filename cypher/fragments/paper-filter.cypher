// The one paper filter, over a paper bound to `p`; a null parameter restricts nothing. A query takes it in with a
// line `// include: fragments/paper-filter` inside a WHERE (src/graph/query-registry.ts puts the lines in).
AND ($collections IS NULL OR any(col IN p.collections WHERE col IN $collections))
AND ($yearFrom IS NULL OR p.year >= $yearFrom)
AND ($yearTo IS NULL OR p.year <= $yearTo)
AND ($topics IS NULL OR EXISTS { (p)-[:HAS_TOPIC]->(filterTopic:Topic) WHERE filterTopic.id IN $topics })
AND ($authors IS NULL OR EXISTS { (p)<-[:AUTHORED]-(filterAuthor:Author) WHERE filterAuthor.id IN $authors })
AND ($venues IS NULL OR EXISTS { (p)-[:PUBLISHED_IN]->(filterVenue:Venue) WHERE filterVenue.id IN $venues })
// An institution or a country: an affiliation of one of the paper's authors, per paper where the record gives it,
// else the author's own; with both, one affiliation must be that institution in that country.
AND (($institutions IS NULL AND $countries IS NULL) OR EXISTS {
  (p)<-[filterAuthorship:AUTHORED]-(filterAuthor:Author)
  WHERE any(inst IN CASE WHEN p.affiliationsPerPaper THEN coalesce(filterAuthorship.institutions, [])
    ELSE [(filterAuthor)-[:AFFILIATED_WITH]->(x) | x.id] END
    WHERE ($institutions IS NULL OR inst IN $institutions)
      AND ($countries IS NULL OR EXISTS { (place:Institution {id: inst}) WHERE place.countryCode IN $countries }))
})
AND ($textScores IS NULL OR $textScores[p.id] IS NOT NULL)
AND ($hasDoi IS NULL OR (p.doi IS NOT NULL) = $hasDoi)
AND ($citedByMin IS NULL OR coalesce(p.citedByCount, 0) >= $citedByMin)
AND ($citedByMax IS NULL OR coalesce(p.citedByCount, 0) <= $citedByMax)
