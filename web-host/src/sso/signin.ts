import { resetNotLoggedIn, session } from '@atrium/sdk';
import { clearHelperCache, cloudLogout, type SignInAnswer } from './api';

/** Stores a single sign-on answer: the session (tokens, profile) and the sso data (spec 3, SSO data)
 * the guard and the -1 handling read; answers where to go next. */
export function completeSignIn(data: SignInAnswer): string {
  session.signIn(data);
  const sso = {
    portalType: data.portalType || undefined,
    ssoType: data.ssoType || undefined,
    urlLogin: data.urlLogin || undefined,
    urlLogout: data.urlLogout || undefined,
    portalCode: data.portalCode || undefined,
    domainName: data.domainName || undefined,
    ssoToken: data.ssoToken || undefined,
    ssoRefreshToken: data.ssoRefreshToken || undefined,
  };
  session.setSso(Object.fromEntries(Object.entries(sso).filter(([, v]) => v !== undefined)));
  resetNotLoggedIn();
  const redirect = data.redirect && data.redirect.startsWith('/') && !data.redirect.startsWith('//') ? data.redirect : '';
  return redirect || session.takeRedirect() || '/home';
}

/**
 * After the platform's own sign-out (`base/base-user/logout`): where the browser goes for a single
 * sign-on user. A cloud identity session (stored domain and sso tokens) is ended at the provider; a
 * portalType sso user goes to the provider's sign-out address; everybody else to /login.
 */
export async function ssoSignOutTarget(): Promise<string> {
  const sso = session.sso;
  const user = session.user;
  clearHelperCache();
  if (sso.domainName && sso.ssoToken && sso.ssoRefreshToken) {
    let url: string | undefined;
    try {
      url = await cloudLogout(sso.domainName, sso.ssoToken, sso.ssoRefreshToken);
    } catch {
      url = undefined;
    }
    session.clearSsoTokens();
    return url || '/login';
  }
  if (user?.portalType === 'sso' && user.urlLogout) return String(user.urlLogout);
  return '/login';
}

/** Which items the user dropdown shows for this user (spec 2.5). */
export function userMenuRules(user: { portalType?: string; ssoType?: string; urlLogout?: string } | undefined): {
  changePassword: boolean;
  signOut: boolean;
} {
  const sso = user?.portalType === 'sso';
  const chat = ['dingtalk', 'wecom', 'wxwork'].includes(String(user?.ssoType || '').toLowerCase());
  return { changePassword: !sso, signOut: !sso || chat || !!user?.urlLogout };
}
