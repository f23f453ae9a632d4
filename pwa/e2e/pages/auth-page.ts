import type { Locator, Page } from 'playwright-core';

export interface SignUpDetails {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** /auth: the Login and Sign Up tabs and the forgot-password dialog. */
export class AuthPage {
  readonly loginTab: Locator;
  readonly signUpTab: Locator;
  readonly panel: Locator;
  readonly signInButton: Locator;
  readonly createAccountButton: Locator;
  readonly forgotPasswordLink: Locator;
  readonly forgotDialog: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.loginTab = page.getByRole('tab', { name: 'Login' });
    this.signUpTab = page.getByRole('tab', { name: 'Sign Up' });
    this.panel = page.getByRole('tabpanel');
    this.signInButton = this.panel.getByRole('button', { name: 'Sign in' });
    this.createAccountButton = this.panel.getByRole('button', { name: 'Create account' });
    this.forgotPasswordLink = this.panel.getByRole('button', { name: /Forgot your password/ });
    this.forgotDialog = page.getByRole('dialog', { name: 'Reset your password' });
    this.alert = page.getByRole('alert').filter({ hasText: 'Sign-in didn’t work' });
  }

  async open(query = '') {
    await this.page.goto(`/auth${query}`);
    await this.loginTab.waitFor();
  }

  async switchToSignUp() {
    await this.signUpTab.click();
    await this.createAccountButton.waitFor();
  }

  async signUp(details: SignUpDetails) {
    await this.switchToSignUp();
    await this.panel.getByLabel('First name').fill(details.firstName);
    await this.panel.getByLabel('Last name').fill(details.lastName);
    await this.panel.getByLabel('Email').fill(details.email);
    await this.panel.getByLabel('Password').fill(details.password);
    await this.createAccountButton.click();
  }

  async signIn(email: string, password: string) {
    await this.panel.getByLabel('Email').fill(email);
    await this.panel.getByLabel('Password').fill(password);
    await this.signInButton.click();
  }

  async askForResetLink(email: string) {
    await this.forgotPasswordLink.click();
    await this.forgotDialog.getByLabel('Email').fill(email);
    await this.forgotDialog.getByRole('button', { name: 'Send Reset Link' }).click();
  }

  fieldError(text: string): Locator {
    return this.panel.getByText(text, { exact: true });
  }
}
