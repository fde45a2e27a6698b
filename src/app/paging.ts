// Page sizes of the paged reads (SPEC Limits: an event catalog page, an object's locations).
export const PAGE = { default: 100, ceiling: 1000 } as const;
