// What a write to these papers may change, read before it happens: each paper's part in the stored aggregates as it
// stands (fragments/paper-part); aggregates/refresh takes it off and adds the paper's part after the write.
UNWIND $papers AS id
MATCH (p:Paper {id: id})
RETURN
  // include: fragments/paper-part
  AS state
