// The async boundary: shared singletons (react, antd, the SDK, ...) are negotiated by Module Federation
// before any of them is evaluated.
import('./bootstrap');
