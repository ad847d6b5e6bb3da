/** Style sheets imported as text (webpack `asset/source`), added to the page by the module that needs them. */
declare module '*.css' {
  const text: string;
  export default text;
}
