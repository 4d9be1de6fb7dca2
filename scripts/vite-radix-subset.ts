import type { AtRule, Container, Plugin, Rule } from 'postcss';

/**
 * A PostCSS plugin that cuts Radix Themes' full stylesheet (81 KB gzip) down to what a few screens use, for
 * the candidate's interview: a first visit there must stay under 30 KB of CSS (issue 8), while the manager
 * screens keep the full stylesheet.
 *
 * A stylesheet opts in with one at-rule after importing the full styles:
 *
 *   @import '@radix-ui/themes/styles.css';
 *   @radix-subset components(Box Flex Text) colors(gray slate indigo);
 *
 * A second stylesheet that only adds components to a page already holding such a subset (the auth card) says
 * `components-only`: tokens, utilities, fonts and keyframes are left to the first one.
 *
 * `*` keeps every component or colour, `responsive` keeps the responsive variants (the manager screens), and
 * `srgb` drops the Display P3 colour overrides (`@supports (color: color(display-p3 ...))`).
 *
 * `components` lists Radix class names without the `rt-` prefix (the exact classes, e.g. `CalloutRoot`,
 * `BaseButton`): rules for any other component class are dropped. `colors` lists the colour scales kept (the
 * accent, the theme's gray and every `color` prop used): other scales' variables and `data-accent-color`
 * rules are dropped. Also dropped: the dark appearance (the interview renders with `appearance="inherit"` on
 * a page that never sets `.dark`) and the responsive (`xs:`..`xl:`) variants of utility props, which the
 * interview screens do not use (they pass plain values, never `{ initial, sm }` objects).
 */
export function radixSubset(): Plugin {
  return {
    postcssPlugin: 'radix-subset',
    OnceExit(root) {
      let options: AtRule | undefined;
      root.walkAtRules('radix-subset', (rule) => {
        options = rule;
      });
      if (!options) return;
      const components = new Set(listOf(options.params, 'components'));
      const colors = new Set(listOf(options.params, 'colors'));
      const componentsOnly = /\bcomponents-only\b/.test(options.params);
      const responsive = /\bresponsive\b/.test(options.params);
      const allComponents = components.has('*');
      const allColors = colors.has('*');
      if (/\bsrgb\b/.test(options.params)) {
        root.walkAtRules('supports', (rule) => {
          if (rule.params.includes('display-p3')) rule.remove();
        });
      }
      options.remove();

      const dropped = (selector: string): boolean => {
        if (componentsOnly && !/\.rt-[A-Z]/.test(selector)) return true;
        if (!allComponents) {
          for (const [, name] of selector.matchAll(/\.rt-([A-Z][A-Za-z]*)/g)) if (name && !components.has(name)) return true;
        }
        if (!allColors) {
          for (const [, color] of selector.matchAll(/\[data-(?:accent|gray)-color=["']?([a-z]+)/g)) {
            if (color && !colors.has(color)) return true;
          }
        }
        if (/\.dark\b|\.dark-theme\b/.test(selector)) return true;
        return !responsive && /(?:^|[\s.(,])(?:xs|sm|md|lg|xl)\\:/.test(selector);
      };

      if (componentsOnly) root.walkAtRules(/^(font-face|(-webkit-)?keyframes)$/, (rule) => {
        rule.remove();
      });
      root.walkRules((rule: Rule) => {
        // Keyframes' steps (from, to, 50%) are not selectors of elements.
        if (rule.parent?.type === 'atrule' && /keyframes$/.test((rule.parent as AtRule).name)) return;
        const kept = rule.selectors.filter((selector) => !dropped(selector));
        if (kept.length === 0) rule.remove();
        else if (kept.length !== rule.selectors.length) rule.selectors = kept;
      });
      root.walkDecls(/^--/, (decl) => {
        const scale = /^--([a-z]+)-(?:a?\d+|contrast|surface|indicator|track)$/.exec(decl.prop)?.[1];
        if (scale && RADIX_COLORS.has(scale) && !allColors && !colors.has(scale)) decl.remove();
      });
      removeEmpty(root);
    },
  };
}
radixSubset.postcss = true as const;

function listOf(params: string, name: string): string[] {
  const match = new RegExp(`${name}\\(([^)]*)\\)`).exec(params);
  return match?.[1]?.split(/\s+/).filter(Boolean) ?? [];
}

function removeEmpty(container: Container): void {
  container.each((node) => {
    if (node.type === 'rule' || node.type === 'atrule') {
      if (node.nodes) removeEmpty(node);
      if (node.nodes && node.nodes.length === 0) node.remove();
    }
  });
}

const RADIX_COLORS = new Set([
  'gray', 'mauve', 'slate', 'sage', 'olive', 'sand', 'tomato', 'red', 'ruby', 'crimson', 'pink', 'plum', 'purple',
  'violet', 'iris', 'indigo', 'blue', 'cyan', 'teal', 'jade', 'green', 'grass', 'brown', 'orange', 'sky', 'mint',
  'lime', 'yellow', 'amber', 'gold', 'bronze',
]);
