/**
 * The antd components the first pages draw (the sign-in page; the signed-in shell's navbar, sidebar, tab
 * strip and home), in the variants that add styles of their own: their styles are built into a stylesheet
 * with the bundle (see sdk/web/webpack/antdStyles.cjs). Whatever is not listed here gets its styles at run
 * time, as every plugin page's components do.
 */
module.exports = (antd, h) => {
  const item = [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }];
  return [
    h(antd.App, { key: 'app' },
      // the shell
      h(antd.Menu, { items: item, mode: 'inline' }),
      h(antd.Menu, { items: item, mode: 'horizontal' }),
      h(antd.Tabs, { type: 'editable-card', hideAdd: true, items: [{ key: 'a', label: 'a' }] }),
      h(antd.Dropdown, { menu: { items: item } }, h('span', null, 'a')),
      h(antd.AutoComplete, { options: [] }, h(antd.Input, { prefix: 'a', allowClear: true })),
      h(antd.Tooltip, { title: 'a' }, h('span', null, 'a')),
      h(antd.Popover, { content: 'a' }, h('span', null, 'a')),
      h(antd.Badge, { count: 1, size: 'small' }),
      h(antd.Avatar, null, 'a'),
      h(antd.Spin, null),
      // home
      h(antd.Row, null, h(antd.Col, { span: 12 }, 'a')),
      h(antd.Card, { title: 'a', variant: 'borderless' }, 'a'),
      h(antd.Statistic, { title: 'a', value: 1 }),
      h(antd.Skeleton, { active: true }),
      h(antd.Tag, { color: 'gold' }, 'a'),
      h(antd.Empty, { image: antd.Empty.PRESENTED_IMAGE_SIMPLE }),
      h(antd.Typography.Link, null, 'a'),
      // sign-in
      h(antd.Form, null,
        h(antd.Form.Item, { name: 'a', rules: [{ required: true }] }, h(antd.Input.Password, null)),
        h(antd.Form.Item, { name: 'b' }, h(antd.Checkbox, null, 'a'))),
      h(antd.Select, { options: [] }),
      h(antd.Button, { type: 'primary' }, 'a'),
    ),
  ];
};
