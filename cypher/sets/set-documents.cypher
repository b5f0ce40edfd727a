// Set documents by id with what a search result or a citation shows.
UNWIND $ids AS id
MATCH (d:SetDocument {id: id})
RETURN d {.id, .setId, .documentName, .documentFormat, .title, .year, .doi, .documentAuthors, .pageCount,
          .abstract} AS document
