// The leading ORDER BY keys of the one paper sort, over `sortKey` (fragments/paper-sort-key): papers without the key
// last in either direction, then ascending or descending by $sortDescending. Ends with a comma: a query's own keys
// follow and break ties.
sortKey IS NULL,
CASE WHEN $sortDescending THEN null ELSE sortKey END ASC,
CASE WHEN $sortDescending THEN sortKey END DESC,
