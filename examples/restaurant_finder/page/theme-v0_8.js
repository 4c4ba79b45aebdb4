// The Theme the v0.8 Lit elements require (they read it from a context and fail without one; no
// default ships). Each entry maps class names to `true`; the names are utility classes that the
// elements' own shadow-root styles define (`layout-*`, `border-*`, `typography-*`, on a 4 px
// grid). Every key of the Theme type is present, so no element finds a hole.

const none = () => ({});
const on = (...names) => Object.fromEntries(names.map((n) => [n, true]));
const field = () => ({
  container: on('layout-dsp-flexvert', 'layout-g-1', 'layout-mb-2'),
  element: on('layout-p-2', 'border-br-2', 'border-bw-1', 'border-bs-s'),
  label: on('typography-sz-ls', 'typography-w-500'),
});

export const theme = {
  components: {
    AudioPlayer: none(),
    // The p-* colours are the palette the surface derives from beginRendering's primaryColor.
    Button: on('layout-pt-2', 'layout-pb-2', 'layout-pl-4', 'layout-pr-4', 'border-br-2', 'border-bw-0', 'color-bgc-p90'),
    Card: on('layout-p-3', 'border-br-3', 'border-bw-1', 'border-bs-s', 'color-bc-p90'),
    Column: on('layout-g-2'),
    CheckBox: field(),
    DateTimeInput: field(),
    Divider: on('layout-mt-2', 'layout-mb-2'),
    Image: {
      all: on('border-br-2'),
      icon: none(),
      avatar: on('border-br-50pc'),
      smallFeature: none(),
      mediumFeature: none(),
      largeFeature: none(),
      header: none(),
    },
    Icon: none(),
    List: on('layout-g-2'),
    Modal: { backdrop: none(), element: on('layout-p-4', 'border-br-3') },
    MultipleChoice: field(),
    Row: on('layout-g-4', 'layout-al-fs'),
    Slider: field(),
    Tabs: {
      container: none(),
      element: none(),
      controls: { all: on('layout-p-2'), selected: on('typography-w-700') },
    },
    Text: {
      all: on('layout-mt-0', 'layout-mb-0'),
      h1: on('typography-sz-hm', 'typography-w-700'),
      h2: on('typography-sz-hs', 'typography-w-700'),
      h3: on('typography-sz-tl', 'typography-w-600'),
      h4: on('typography-sz-tm', 'typography-w-600'),
      h5: on('typography-sz-ts', 'typography-w-600'),
      caption: on('typography-sz-bs', 'typography-fs-i'),
      body: on('typography-sz-bm'),
    },
    TextField: field(),
    Video: none(),
  },
  elements: {
    a: none(),
    audio: none(),
    body: none(),
    button: none(),
    h1: none(),
    h2: none(),
    h3: none(),
    h4: none(),
    h5: none(),
    iframe: none(),
    input: none(),
    p: none(),
    pre: none(),
    textarea: none(),
    video: none(),
  },
  markdown: { p: [], h1: [], h2: [], h3: [], h4: [], h5: [], ul: [], ol: [], li: [], a: [], strong: [], em: [] },
  additionalStyles: {
    Image: { 'max-width': '160px', 'max-height': '120px', 'object-fit': 'cover' },
  },
};
