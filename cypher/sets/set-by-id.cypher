// A document set with its documents (no text, no chunks), whoever owns it: the caller checks the owner.
MATCH (s:DocumentSet {id: $id})
OPTIONAL MATCH (s)-[:HOLDS]->(d:SetDocument)
WITH s, d ORDER BY d.addedAt, d.id
RETURN s {.id, .owner, .createdAt, .expiresAt} AS set,
       [doc IN collect(d) | doc {.id, .documentName, .documentFormat, .title, .year, .doi, .documentAuthors,
         .pageCount, .documentHash, .chunkCount, .sectionTitles, .sectionKinds, .sectionStarts, .sectionEnds,
         .pageStarts, .pageNumbers, .referenceEntries, .addedAt,
         resolved: COUNT { (doc)-[:REFERS_TO]->(:Paper) }}] AS documents
