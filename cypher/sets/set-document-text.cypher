// The stored text of set documents (what their chunks' and citations' offsets index).
UNWIND $ids AS id
MATCH (d:SetDocument {id: id})
RETURN d.id AS id, d.text AS text
