// Nodes that belong to a set, by label (set, documents, chunks): zero once it is deleted or expired.
RETURN COUNT { MATCH (s:DocumentSet {id: $id}) } AS sets,
       COUNT { MATCH (d:SetDocument {setId: $id}) } AS documents,
       COUNT { MATCH (c:SetChunk {setId: $id}) } AS chunks
