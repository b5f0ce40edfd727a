UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
CALL db.create.setNodeVectorProperty(c, $property, row.embedding)
RETURN count(c) AS updated
