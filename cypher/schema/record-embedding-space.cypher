// Records the model the chunk vectors come from (one node; `since` when it last changed).
MERGE (space:EmbeddingSpace {id: 'chunks'})
SET space.model = $model, space.since = datetime()
RETURN space.model AS model
