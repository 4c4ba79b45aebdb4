// Entry of dist/a2ui-v0_9.js: everything the page needs to render A2UI v0.9, in one module so
// that the renderer, its web_core and lit are each loaded once.
export { MessageProcessor } from '@a2ui/web_core/v0_9';
// Importing the Lit catalog registers <a2ui-surface> and the basic catalog's elements.
export { basicCatalog, Context } from '@a2ui/lit/v0_9';
export { ContextProvider } from '@lit/context';
export { HttpAgent } from '@ag-ui/client';
export const version = 'v0.9';
