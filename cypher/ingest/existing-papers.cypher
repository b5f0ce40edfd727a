// What is already stored for the papers of a batch: lets ingestion skip unchanged papers (idempotent, resumable).
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, p.contentHash AS contentHash, coalesce(p.stub, false) AS stub, coalesce(p.collections, []) AS collections
