def test_login_and_profile(client):
    c = client.signed_in("alice")
    me = c.ok("GET", "/api/base/base-user/get-login-user")
    assert me["userFullName"] == "Alice Zhang"
    assert me["tenantName"] == "Acme"
    menus = c.ok("GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")
    assert menus["menus"]
